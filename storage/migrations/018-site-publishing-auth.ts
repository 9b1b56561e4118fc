import type { Migration } from './index.js';

export const sitePublishingAuth: Migration = {
  version: 18,
  name: 'site-publishing-auth',
  sql: `
-- A site's visitor authentication: the key its owners' backend signs visitor JWTs with (HS256),
-- where to send a visitor whose JWT is missing, wrong or expired, and the backend kind upstream
-- names ("custom"; "integration" is recorded but no integration runs here).
CREATE TABLE site_publishing_auth (
  site_id TEXT PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  backend TEXT NOT NULL,
  private_key TEXT NOT NULL,
  fallback_url TEXT,
  updated_at TEXT NOT NULL
);
`,
};
