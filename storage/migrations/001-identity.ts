import type { Migration } from './index.js';
import { postgresSchema } from '../dialect.js';

const sql = `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  display_name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email_verified INTEGER NOT NULL DEFAULT 0,
  photo_url TEXT,
  -- display name and email folded to lower case (Unicode-aware, unlike SQLite's LIKE), for search
  search_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  label TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  hostname TEXT UNIQUE,
  type TEXT NOT NULL DEFAULT 'business',
  use_case TEXT,
  community_type TEXT,
  default_role TEXT,
  default_content TEXT,
  logo TEXT,
  sso INTEGER NOT NULL DEFAULT 0,
  ai INTEGER NOT NULL DEFAULT 0,
  invite_links INTEGER NOT NULL DEFAULT 1,
  merge_rules TEXT NOT NULL DEFAULT '{"type":"none"}'
);

CREATE TABLE organization_email_domains (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  domain TEXT NOT NULL,
  PRIMARY KEY (organization_id, domain)
);
CREATE INDEX organization_email_domains_by_domain ON organization_email_domains(domain);

CREATE TABLE memberships (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT,
  disabled INTEGER NOT NULL DEFAULT 0,
  sso INTEGER NOT NULL DEFAULT 0,
  joined_at TEXT NOT NULL,
  last_seen_at TEXT,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_by_joined ON memberships(organization_id, joined_at, user_id);
CREATE INDEX memberships_by_seen ON memberships(organization_id, last_seen_at, user_id) WHERE last_seen_at IS NOT NULL;
CREATE INDEX memberships_by_role ON memberships(organization_id, role, joined_at, user_id);
CREATE INDEX memberships_user ON memberships(user_id);

CREATE TABLE teams (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  -- the title case-folded for the title filter, as users.search_key
  title_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX teams_by_created ON teams(organization_id, created_at, id);

CREATE TABLE team_members (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  added_at TEXT NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members(user_id, team_id);
CREATE INDEX team_members_by_added ON team_members(team_id, added_at, user_id);

CREATE TABLE invite_links (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  target_kind TEXT NOT NULL,
  target_id TEXT,
  role TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX invite_links_by_created ON invite_links(organization_id, created_at, id);

CREATE TABLE saml_providers (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  sso_url TEXT,
  entity_id TEXT,
  certificate TEXT,
  default_team_id TEXT REFERENCES teams(id) ON DELETE SET NULL,
  default_role TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX saml_providers_by_created ON saml_providers(organization_id, created_at, id);

CREATE TABLE agent_instructions (
  organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  document TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL
);

`;

export const identity: Migration = {
  version: 1,
  name: 'identity',
  sql,
  postgres: 'CREATE EXTENSION IF NOT EXISTS citext;\n' + postgresSchema(sql),
};
