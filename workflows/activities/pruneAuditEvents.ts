import type { ContentDeps } from '../../domain/common/deps.js';
import { pruneAuditLog } from '../../domain/audit/index.js';
import type { AuditRetentionInput } from '../auditRetention.workflow.js';

/** Removes the audit events past the retention: one statement on an index, no heartbeat needed. */
export function pruneAuditEvents(deps: Pick<ContentDeps, 'db'>) {
  return (input: AuditRetentionInput) => pruneAuditLog(deps.db, input.retentionMs);
}
