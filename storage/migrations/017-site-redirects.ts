import type { Migration } from './index.js';

export const siteRedirects: Migration = {
  version: 17,
  name: 'site-redirects',
  sql: `
-- A site's redirects: a path below the site's URL ("source", unique per site) to a section, a site
-- space or a page of a site space ("destination", upstream's SiteRedirectDestination as JSON).
CREATE TABLE site_redirects (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  destination TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (site_id, source)
);
`,
};
