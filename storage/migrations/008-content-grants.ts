import type { Migration } from './index.js';

export const contentGrants: Migration = {
  version: 8,
  name: 'content-grants',
  sql: `
-- A member's role on one space or collection beyond what their organization role gives them
-- (joining with an invite link to it). A grant never lowers a role.
CREATE TABLE content_grants (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  target_kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (user_id, target_kind, target_id)
);
CREATE INDEX content_grants_by_target ON content_grants(target_kind, target_id);
CREATE INDEX content_grants_by_organization ON content_grants(organization_id, user_id);
`,
};
