import type { Migration } from './index.js';

export const redirectRules: Migration = {
  version: 31,
  name: 'redirect-rules',
  // 0.202.0's redirect options, beside each redirect (a redirect without a row has neither): a
  // `permanent` redirect answers 308 on a public site's live pages (307 otherwise), and a source
  // ending in `*` with `capture_wildcard` carries what the star matched to the destination.
  // Destinations may now be external URLs (in site_redirects.destination, as before).
  // Older nodes read redirects without their options (302 to the destination, no wildcard).
  sql: `
CREATE TABLE IF NOT EXISTS site_redirect_rules (
  redirect_id TEXT PRIMARY KEY REFERENCES site_redirects(id) ON DELETE CASCADE,
  capture_wildcard INTEGER NOT NULL,
  permanent INTEGER NOT NULL,
  updated_at TEXT
);
`,
};
