import { randomUUID } from 'node:crypto';
import type { Queryable, Transaction } from './db.js';
import { now } from './ids.js';
import { paginate, type Page, type PageRequest } from './pagination.js';

export type AuditSource = 'ui' | 'api' | 'workflow' | 'script';

export interface AuditParty {
  type: string;
  id: string;
  label?: string;
}

export interface AuditEventRecord {
  id: string;
  organizationId: string;
  occurredAt: string;
  action: string;
  actor: AuditParty;
  source: AuditSource;
  target: AuditParty;
  correlationId?: string;
  payload: Record<string, unknown>;
}

export type NewAuditEvent = Omit<AuditEventRecord, 'id' | 'occurredAt'>;

interface AuditEventRow {
  id: string;
  organization_id: string;
  occurred_at: string;
  action: string;
  actor_type: string;
  actor_id: string;
  actor_label: string | null;
  source: AuditSource;
  target_type: string;
  target_id: string;
  target_label: string | null;
  correlation_id: string | null;
  payload: string;
}

const party = (type: string, id: string, label: string | null): AuditParty => ({ type, id, ...(label !== null && { label }) });

function toAuditEvent(row: AuditEventRow): AuditEventRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    occurredAt: row.occurred_at,
    action: row.action,
    actor: party(row.actor_type, row.actor_id, row.actor_label),
    source: row.source,
    target: party(row.target_type, row.target_id, row.target_label),
    ...(row.correlation_id !== null && { correlationId: row.correlation_id }),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

/** Writes one event; a Transaction, so it lands with the change it records or not at all. */
export async function insertAuditEvent(db: Transaction, event: NewAuditEvent): Promise<string> {
  const id = randomUUID();
  await db.run(
    `INSERT INTO audit_events (id, organization_id, occurred_at, action, actor_type, actor_id, actor_label, source, target_type, target_id, target_label, correlation_id, payload)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      event.organizationId,
      now(),
      event.action,
      event.actor.type,
      event.actor.id,
      event.actor.label ?? null,
      event.source,
      event.target.type,
      event.target.id,
      event.target.label ?? null,
      event.correlationId ?? null,
      JSON.stringify(event.payload),
    ],
  );
  return id;
}

export interface AuditFilter {
  from?: string;
  to?: string;
  action?: string;
  actor?: string;
  target?: string;
}

/** The organization's events, newest first (the `order` of the request otherwise). */
export async function listAuditEvents(db: Queryable, organizationId: string, filter: AuditFilter, request: PageRequest): Promise<Page<AuditEventRecord>> {
  const where = ['organization_id = ?'];
  const params: unknown[] = [organizationId];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (filter.from !== undefined) add('occurred_at >= ?', filter.from);
  if (filter.to !== undefined) add('occurred_at <= ?', filter.to);
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.actor !== undefined) add('actor_id = ?', filter.actor);
  if (filter.target !== undefined) add('target_id = ?', filter.target);
  const page = await paginate<AuditEventRow>(
    db,
    { select: '*', from: 'audit_events', where: where.join(' AND '), params, sort: ['occurred_at', 'id'], key: (row) => [row.occurred_at, row.id] },
    { ...request, order: request.order ?? 'desc' },
  );
  return { ...page, items: page.items.map(toAuditEvent) };
}

export async function findAuditEvent(db: Queryable, organizationId: string, id: string): Promise<AuditEventRecord | undefined> {
  const row = await db.get<AuditEventRow>('SELECT * FROM audit_events WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return row && toAuditEvent(row);
}

/** Removes one event: the change it recorded was undone (a merge whose branch didn't move after all). */
export async function deleteAuditEvent(db: Queryable, id: string): Promise<void> {
  await db.run('DELETE FROM audit_events WHERE id = ?', [id]);
}

/** Removes the events older than `before` (an ISO time), in every organization; how many went. */
export async function deleteAuditEventsBefore(db: Queryable, before: string): Promise<number> {
  const { changes } = await db.run('DELETE FROM audit_events WHERE occurred_at < ?', [before]);
  return changes;
}
