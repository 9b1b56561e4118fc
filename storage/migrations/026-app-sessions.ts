import type { Migration } from './index.js';

export const appSessions: Migration = {
  version: 26,
  name: 'app-sessions',
  // The web app's sign-in: a password per user (scrypt, its parameters in the hash), and the
  // sessions signed in with it, kept on the server so they can be listed and revoked. A session
  // is found by the hash of its cookie's value, as tokens are.
  // IF NOT EXISTS: a test that rewinds the version to rerun an older migration runs this again.
  sql: `
CREATE TABLE IF NOT EXISTS user_passwords (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  password_hash TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS app_sessions (
  id TEXT PRIMARY KEY,
  session_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  user_agent TEXT
);
CREATE INDEX IF NOT EXISTS app_sessions_user ON app_sessions(user_id);
`,
};
