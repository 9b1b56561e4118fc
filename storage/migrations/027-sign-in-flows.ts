import type { Migration } from './index.js';

export const signInFlows: Migration = {
  version: 27,
  name: 'sign-in-flows',
  // A sign-in through an identity provider (OpenID Connect, SAML) between leaving for the provider
  // and coming back: what the return is checked against (state, nonce, PKCE verifier; the SAML
  // request's id), found by the hash of the browser's cookie, used once. `user_id` is set when a
  // SAML response was accepted and the browser has yet to finish the sign-in.
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
`,
};
