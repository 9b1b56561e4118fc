import type { Database, Queryable } from './db.js';
import { hashToken, newId, newToken, now } from './ids.js';
import { toUser, userColumns, type UserRecord } from './users.js';

/** A signed-in browser: found by the hash of its cookie's value; its CSRF token goes in every form it is shown. */
export interface AppSessionRecord {
  id: string;
  userId: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
  userAgent: string | null;
}

interface SessionRow {
  id: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
}

const toSession = (row: SessionRow): AppSessionRecord => ({
  id: row.id,
  userId: row.user_id,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  userAgent: row.user_agent,
});
const sessionColumns = 'app_sessions.id, app_sessions.user_id, app_sessions.csrf_token, app_sessions.created_at, app_sessions.expires_at, app_sessions.user_agent';

/** The user's password hash (scrypt, as domain/accounts writes it), if they have one. */
export async function findPasswordHash(db: Queryable, userId: string): Promise<string | undefined> {
  return (await db.get<{ password_hash: string }>('SELECT password_hash FROM user_passwords WHERE user_id = ?', [userId]))?.password_hash;
}

export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.run(
    'INSERT INTO user_passwords (user_id, password_hash, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at',
    [userId, passwordHash, now()],
  );
}

/** Stores a new session and returns the only plaintext copy of its cookie's value. */
export async function createAppSession(db: Queryable, userId: string, options: { lifetimeMs: number; userAgent?: string }): Promise<{ cookie: string; session: AppSessionRecord }> {
  const cookie = newToken();
  const created = new Date();
  const session: AppSessionRecord = {
    id: newId(),
    userId,
    csrfToken: newToken(),
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + options.lifetimeMs).toISOString(),
    userAgent: options.userAgent?.slice(0, 512) ?? null,
  };
  await db.run('INSERT INTO app_sessions (id, session_hash, user_id, csrf_token, created_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    session.id,
    hashToken(cookie),
    userId,
    session.csrfToken,
    session.createdAt,
    session.expiresAt,
    session.userAgent,
  ]);
  return { cookie, session };
}

/** The session a cookie value names and its user, through the read cache; undefined when unknown or expired. */
export async function findAppSession(db: Database, cookie: string): Promise<{ session: AppSessionRecord; user: UserRecord } | undefined> {
  if (cookie.length > 256) return undefined;
  const found = await db.cached(`app-session:${cookie}`, ['app_sessions', 'users'], async () => {
    // Aliased: the session's id and created_at would otherwise be read as the user's.
    const row = await db.get<Parameters<typeof toUser>[0] & { session_id: string; user_id: string; csrf_token: string; session_created_at: string; expires_at: string; user_agent: string | null }>(
      `SELECT app_sessions.id AS session_id, app_sessions.user_id, app_sessions.csrf_token, app_sessions.created_at AS session_created_at, app_sessions.expires_at, app_sessions.user_agent, ${userColumns}
       FROM app_sessions JOIN users ON users.id = app_sessions.user_id WHERE app_sessions.session_hash = ?`,
      [hashToken(cookie)],
    );
    return (
      row && {
        session: toSession({ id: row.session_id, user_id: row.user_id, csrf_token: row.csrf_token, created_at: row.session_created_at, expires_at: row.expires_at, user_agent: row.user_agent }),
        user: toUser(row),
      }
    );
  });
  if (!found || Date.parse(found.session.expiresAt) <= Date.now()) return undefined;
  return found;
}

export async function listAppSessions(db: Queryable, userId: string): Promise<AppSessionRecord[]> {
  const rows = await db.all<SessionRow>(`SELECT ${sessionColumns} FROM app_sessions WHERE user_id = ? AND expires_at > ? ORDER BY created_at DESC, id`, [userId, now()]);
  return rows.map(toSession);
}

export async function removeAppSession(db: Queryable, sessionId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM app_sessions WHERE id = ?', [sessionId]);
  return changes > 0;
}

/** Every session of the user but `except` (the one changing the password): what a password change does, so a stolen session ends with it. */
export async function removeAppSessionsOfUser(db: Queryable, userId: string, except?: string): Promise<number> {
  const { changes } = await db.run('DELETE FROM app_sessions WHERE user_id = ? AND id <> ?', [userId, except ?? '']);
  return changes;
}
