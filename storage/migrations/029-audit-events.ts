import type { Migration } from './index.js';

export const auditEvents: Migration = {
  version: 29,
  name: 'audit-events',
  // Who changed what in an organization (listOrganizationAuditEvents): written in the transaction
  // of the change it records, kept for QUIRE_AUDIT_RETENTION. Older nodes don't write them: during
  // a rolling upgrade, changes made through an older node are missing from the log.
  sql: `
CREATE TABLE IF NOT EXISTS audit_events (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  action TEXT NOT NULL,
  actor_type TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_label TEXT,
  source TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  target_label TEXT,
  correlation_id TEXT,
  payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_events_by_time ON audit_events(organization_id, occurred_at, id);
CREATE INDEX IF NOT EXISTS audit_events_by_action ON audit_events(organization_id, action, occurred_at, id);
CREATE INDEX IF NOT EXISTS audit_events_by_actor ON audit_events(organization_id, actor_id, occurred_at, id);
CREATE INDEX IF NOT EXISTS audit_events_by_target ON audit_events(organization_id, target_id, occurred_at, id);
CREATE INDEX IF NOT EXISTS audit_events_by_age ON audit_events(occurred_at);
`,
};
