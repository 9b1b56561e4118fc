import type { Migration } from './index.js';

export const sites: Migration = {
  version: 10,
  name: 'sites',
  sql: `
-- Docs sites. A site holds either site spaces at its root or sections (each holding site spaces);
-- sections and section groups are siblings under the site or a group, ordered by fractional
-- positions shared by both tables, so a move writes one row.
CREATE TABLE sites (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  visibility TEXT NOT NULL,
  basename TEXT,
  hostname TEXT,
  proxy_origin TEXT,
  published INTEGER NOT NULL DEFAULT 0,
  adaptive_content INTEGER NOT NULL DEFAULT 0,
  agents_context TEXT NOT NULL DEFAULT 'included',
  adaptive_schema TEXT,
  adaptive_schema_updated_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX sites_by_organization ON sites(organization_id, created_at, id);

CREATE TABLE site_section_groups (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  parent_id TEXT REFERENCES site_section_groups(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  icon TEXT,
  position REAL NOT NULL
);
CREATE INDEX site_section_groups_by_site ON site_section_groups(site_id, parent_id, position);

CREATE TABLE site_sections (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  group_id TEXT REFERENCES site_section_groups(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  description TEXT,
  path TEXT NOT NULL,
  condition TEXT,
  icon TEXT,
  is_default INTEGER NOT NULL DEFAULT 0,
  position REAL NOT NULL
);
CREATE INDEX site_sections_by_site ON site_sections(site_id, group_id, position);

CREATE TABLE site_spaces (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  section_id TEXT REFERENCES site_sections(id) ON DELETE CASCADE,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  condition TEXT,
  hidden INTEGER NOT NULL DEFAULT 0,
  is_default INTEGER NOT NULL DEFAULT 0,
  position REAL NOT NULL
);
CREATE INDEX site_spaces_by_site ON site_spaces(site_id, section_id, position);
CREATE INDEX site_spaces_by_space ON site_spaces(space_id);

CREATE TABLE site_share_links (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT,
  share_key TEXT NOT NULL UNIQUE,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);
CREATE INDEX site_share_links_by_site ON site_share_links(site_id, created_at, id);
`,
};
