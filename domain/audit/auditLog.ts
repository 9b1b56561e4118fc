import { deleteAuditEventsBefore, findAuditEvent, listAuditEvents, type AuditEventRecord, type AuditFilter } from '../../storage/auditEvents.js';
import type { Queryable } from '../../storage/db.js';
import type { Page, PageRequest } from '../../storage/pagination.js';
import { missing } from '../common/errors.js';
import { auditActions } from './actions.js';

/** The organization's audit events, newest first, filtered by time, action, actor and target. */
export function readAuditLog(db: Queryable, organizationId: string, filter: AuditFilter, request: PageRequest): Promise<Page<AuditEventRecord>> {
  return listAuditEvents(db, organizationId, filter, request);
}

export async function readAuditEvent(db: Queryable, organizationId: string, id: string): Promise<AuditEventRecord> {
  const event = await findAuditEvent(db, organizationId, id);
  if (!event) throw missing(`Audit event ${id} not found`);
  return event;
}

export const listAuditActions = () => Object.entries(auditActions).map(([id, label]) => ({ id, label }));

/** Forgets the events older than the retention (QUIRE_AUDIT_RETENTION): how many went. */
export function pruneAuditLog(db: Queryable, retentionMs: number, at = Date.now()): Promise<number> {
  return deleteAuditEventsBefore(db, new Date(at - retentionMs).toISOString());
}
