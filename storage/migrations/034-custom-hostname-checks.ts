import type { Migration } from './index.js';

export const customHostnameChecks: Migration = {
  version: 34,
  name: 'custom-hostname-checks',
  // Where a site's custom hostname pointed when Quire last asked DNS (getCustomHostname,
  // dnsRevalidateCustomHostname): one row per site, valid while the site keeps that hostname.
  sql: `
CREATE TABLE IF NOT EXISTS custom_hostname_checks (
  site_id TEXT PRIMARY KEY,
  hostname TEXT NOT NULL,
  status TEXT NOT NULL,
  checked_at TEXT NOT NULL
);
`,
};
