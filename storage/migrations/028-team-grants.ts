import type { Migration } from './index.js';

export const teamGrants: Migration = {
  version: 28,
  name: 'team-grants',
  // A team's role on a space, a collection or a site (inviteToSpace and its kin): every member of
  // the team gets it there. A person's own grants stay in content_grants, which now holds sites too
  // (target_kind 'site'). Older nodes read neither the new table nor site grants: beside them,
  // a team's members and the people invited to a site keep only what their own role gives them.
  sql: `
CREATE TABLE IF NOT EXISTS team_content_grants (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  target_kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  PRIMARY KEY (team_id, target_kind, target_id)
);
CREATE INDEX IF NOT EXISTS team_content_grants_by_target ON team_content_grants(target_kind, target_id, granted_at, team_id);
CREATE INDEX IF NOT EXISTS content_grants_by_target_granted ON content_grants(target_kind, target_id, granted_at, user_id);
`,
};
