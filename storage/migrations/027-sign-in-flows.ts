import type { Migration } from './index.js';

export const signInFlows: Migration = {
  version: 27,
  name: 'sign-in-flows',
  // A sign-in through an identity provider (OpenID Connect, SAML) between leaving for the provider
  // and coming back: what the return is checked against (state, nonce, PKCE verifier; the SAML
  // request's id), found by the hash of the browser's cookie, used once. `user_id` is set when a
  // SAML response was accepted and the browser has yet to finish the sign-in.
  // A welcome link: what an admin hands someone they invited who has no password yet, to set one
  // and accept the invitation (Quire sends no email); found by its hash, used once.
  sql: `
CREATE TABLE IF NOT EXISTS sign_in_flows (
  id TEXT PRIMARY KEY,
  flow_hash TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  data TEXT NOT NULL,
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sign_in_flows_expiry ON sign_in_flows(expires_at);
CREATE TABLE IF NOT EXISTS welcome_links (
  link_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS welcome_links_user ON welcome_links(user_id);
`,
};
