import type { Migration } from './index.js';

export const invitations: Migration = {
  version: 5,
  name: 'invitations',
  sql: `
-- An invitation waits for its user to accept it: no one joins an organization without their own
-- action or an operator's.
CREATE TABLE invitations (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT,
  sso INTEGER NOT NULL DEFAULT 0,
  invited_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX invitations_by_user ON invitations(user_id, created_at, organization_id);
`,
};
