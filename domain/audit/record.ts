import { insertAuditEvent } from '../../storage/auditEvents.js';
import type { Transaction } from '../../storage/db.js';
import type { AuditAction } from './actions.js';
import type { Actor } from './actor.js';

export interface AuditedChange {
  action: AuditAction;
  target: { type: string; id: string; label?: string };
  /** What changed, in a few allowlisted fields (ids, roles, visibility): never content or secrets. */
  payload?: Record<string, unknown>;
}

/**
 * Records a change in the audit log of each organization it concerns, inside the transaction
 * that makes the change: a change that rolls back takes its event with it. Returns the events' ids.
 */
export async function recordAudit(tx: Transaction, actor: Actor, organizationIds: string | readonly string[], change: AuditedChange): Promise<string[]> {
  const ids: string[] = [];
  for (const organizationId of typeof organizationIds === 'string' ? [organizationIds] : organizationIds) {
    ids.push(
      await insertAuditEvent(tx, {
        organizationId,
        action: change.action,
        actor: { type: actor.type, id: actor.id, ...(actor.label !== undefined && { label: actor.label }) },
        source: actor.source,
        target: change.target,
        ...(actor.correlationId && { correlationId: actor.correlationId }),
        payload: change.payload ?? {},
      }),
    );
  }
  return ids;
}
