import type { Queryable } from './db.js';
import { conflict } from './errors.js';
import { newId, now } from './ids.js';

export interface UserRecord {
  id: string;
  displayName: string;
  email: string;
  emailVerified: boolean;
  photoURL: string | null;
  createdAt: string;
}

interface UserRow {
  id: string;
  display_name: string;
  email: string;
  email_verified: number;
  photo_url: string | null;
  created_at: string;
}

export const userColumns = 'users.id, users.display_name, users.email, users.email_verified, users.photo_url, users.created_at';

export function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    emailVerified: row.email_verified === 1,
    photoURL: row.photo_url,
    createdAt: row.created_at,
  };
}

export interface NewUser {
  email: string;
  displayName?: string;
  emailVerified?: boolean;
}

/** What member search matches against: both names, case-folded the same way as the query. */
export const searchKey = (text: string) => text.normalize('NFKC').toLocaleLowerCase('und');

export async function createUser(db: Queryable, input: NewUser): Promise<UserRecord> {
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(db, email)) throw conflict(`A user with email ${email} already exists`);
  const user: UserRecord = {
    id: newId(),
    displayName: input.displayName?.trim() || email.split('@')[0] || email,
    email,
    emailVerified: input.emailVerified ?? false,
    photoURL: null,
    createdAt: now(),
  };
  await db.run('INSERT INTO users (id, display_name, email, email_verified, photo_url, search_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    user.id,
    user.displayName,
    user.email,
    user.emailVerified ? 1 : 0,
    user.photoURL,
    searchKey(`${user.displayName}\n${user.email}`),
    user.createdAt,
  ]);
  return user;
}

/** A user's own profile fields; the search key follows their name. */
export async function updateUser(db: Queryable, id: string, changes: { displayName?: string; photoURL?: string }): Promise<UserRecord | undefined> {
  const user = await findUser(db, id);
  if (!user) return undefined;
  const next = { ...user, ...(changes.displayName !== undefined && { displayName: changes.displayName.trim() }), ...(changes.photoURL !== undefined && { photoURL: changes.photoURL }) };
  await db.run('UPDATE users SET display_name = ?, photo_url = ?, search_key = ? WHERE id = ?', [next.displayName, next.photoURL, searchKey(`${next.displayName}\n${next.email}`), id]);
  return next;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRecord | undefined> {
  const row = await db.get<UserRow>(`SELECT ${userColumns} FROM users WHERE email = ?`, [email.trim().toLowerCase()]);
  return row && toUser(row);
}

export async function findUser(db: Queryable, id: string): Promise<UserRecord | undefined> {
  const row = await db.get<UserRow>(`SELECT ${userColumns} FROM users WHERE id = ?`, [id]);
  return row && toUser(row);
}

export async function listUsers(db: Queryable): Promise<UserRecord[]> {
  const rows = await db.all<UserRow>(`SELECT ${userColumns} FROM users ORDER BY created_at, id`);
  return rows.map(toUser);
}

export async function countUsers(db: Queryable): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users');
  return row?.n ?? 0;
}
