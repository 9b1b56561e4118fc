import type { AuditSource } from '../../storage/auditEvents.js';
import type { UserRecord } from '../../storage/users.js';

/**
 * Who makes a change, and through what: every command the audit log records takes one. The API
 * and the git endpoints make `api` actors, the web app `ui` ones, Temporal activities `workflow`
 * and the admin CLI `script`; `correlationId` ties the events of one request together.
 */
export interface Actor {
  type: 'user' | 'system';
  id: string;
  label?: string;
  source: AuditSource;
  correlationId?: string;
}

export function userActor(user: UserRecord, source: AuditSource, correlationId?: string): Actor {
  return { type: 'user', id: user.id, label: user.displayName, source, ...(correlationId && { correlationId }) };
}

/** Quire itself: a job, or an operator's command. */
export function systemActor(source: AuditSource, label: string): Actor {
  return { type: 'system', id: 'quire', label, source };
}
