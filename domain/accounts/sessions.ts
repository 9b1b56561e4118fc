import type { Database, Transaction } from '../../storage/db.js';
import { listOrganizationIdsOfUser } from '../../storage/members.js';
import { recordAudit } from '../audit/index.js';
import { createAppSession, findAppSession, findPasswordHash, listAppSessions, removeAppSession, removeAppSessionsOfUser, setPasswordHash, type AppSessionRecord } from '../../storage/appSessions.js';
import { findUserByEmail, type UserRecord } from '../../storage/users.js';
import { invalidInput, notAuthenticated, tooManyAttempts } from '../common/errors.js';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { SignInThrottle } from './signInThrottle.js';

/** How long a session lasts from its sign-in. */
export const sessionLifetimeMs = 14 * 86_400_000;

const throttle = new SignInThrottle();

export interface SignIn {
  email: string;
  password: string;
  /** Where the attempt comes from: failures count against it as against the email. */
  address: string;
  userAgent?: string;
}

/**
 * A new session for the person whose email and password these are. Refused alike for an unknown
 * email, a user without a password and a wrong password (a sign-in doesn't tell who has an
 * account), after the same scrypt work; refused before any check while failures make it wait.
 */
export async function signInWithPassword(db: Database, attempt: SignIn): Promise<{ cookie: string; session: AppSessionRecord; user: UserRecord }> {
  // An email allows 5 failures in a row; an address 50 (people behind one address share it).
  const keys = [
    { key: `email:${attempt.email.trim().toLowerCase()}`, free: 5 },
    { key: `address:${attempt.address}`, free: 50 },
  ];
  const wait = throttle.waitSeconds(keys.map(({ key }) => key));
  if (wait > 0) throw tooManyAttempts(`Too many failed sign-ins: try again in ${wait} second${wait === 1 ? '' : 's'}`);
  const user = await findUserByEmail(db, attempt.email.trim());
  const hash = user && (await findPasswordHash(db, user.id));
  const matches = await verifyPassword(attempt.password, hash ?? decoyHash);
  if (!user || !hash || !matches) {
    throttle.failed(keys);
    throw notAuthenticated('The email or the password is not right');
  }
  throttle.succeeded([keys[0]!.key]);
  const { cookie, session } = await db.transaction((tx) => openSession(tx, user.id, { userAgent: attempt.userAgent, method: 'password' }));
  return { cookie, session, user };
}

/**
 * A new app session of the user: a sign-in, recorded in the audit log of each organization they
 * belong to (with how they signed in), in the transaction that opens it.
 */
export async function openSession(tx: Transaction, userId: string, input: { userAgent?: string; method: 'password' | 'welcome link' | 'oidc' | 'saml' }) {
  const opened = await createAppSession(tx, userId, { lifetimeMs: sessionLifetimeMs, userAgent: input.userAgent });
  const self = { type: 'user' as const, id: userId, source: 'ui' as const };
  await recordAudit(tx, self, await listOrganizationIdsOfUser(tx, userId), { action: 'user.signed_in', target: { type: 'user', id: userId }, payload: { method: input.method } });
  return opened;
}

/** The signed-in session a cookie's value names, and its user. */
export const sessionOfCookie = (db: Database, cookie: string) => findAppSession(db, cookie);

export const sessionsOf = (db: Database, user: UserRecord) => listAppSessions(db, user.id);

/** Ends a session of the user's own (signing out, or revoking one listed). */
export async function endSession(db: Database, user: UserRecord, sessionId: string): Promise<void> {
  const own = (await listAppSessions(db, user.id)).some((session) => session.id === sessionId);
  if (own) await removeAppSession(db, sessionId);
}

/** Sets the user's password; every session they had ends (one may have been a thief's), but `keep`: the one they changed it from. */
export async function setPassword(db: Database, user: UserRecord, password: string, keep?: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw invalidInput(problem);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, hash);
    await removeAppSessionsOfUser(tx, user.id, keep);
  });
}

/** A signed-in person's new password, given with their current one: their other sessions end, this one stays. */
export async function changeOwnPassword(db: Database, user: UserRecord, input: { current: string; next: string; session: string }): Promise<void> {
  const hash = await findPasswordHash(db, user.id);
  if (hash && !(await verifyPassword(input.current, hash))) throw invalidInput('The current password is not right');
  await setPassword(db, user, input.next, input.session);
}
