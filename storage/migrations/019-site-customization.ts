import type { Migration } from './index.js';

export const siteCustomization: Migration = {
  version: 19,
  name: 'site-customization',
  sql: `
-- A site's customization (upstream's SiteCustomizationSettings as JSON; none stored: the defaults),
-- and the fields a site space overrides (merged over the site's when read).
CREATE TABLE site_customizations (
  site_id TEXT PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  settings TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE site_space_customizations (
  site_space_id TEXT PRIMARY KEY REFERENCES site_spaces(id) ON DELETE CASCADE,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  overrides TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX site_space_customizations_by_site ON site_space_customizations (site_id);
`,
};
