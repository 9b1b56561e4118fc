import { commentPeople } from '../../storage/comments.js';
import type { Queryable } from '../../storage/db.js';
import type { UserRecord } from '../../storage/users.js';

/** Someone whose account is gone still has an id to show. */
export function formerUser(id: string): UserRecord {
  return { id, displayName: 'Former user', email: '', emailVerified: false, photoURL: null, createdAt: '' };
}

/** A lookup of loaded users that answers every id: an account that is gone shows as a former user. */
export function peopleLookup(found: Map<string, UserRecord>): (id: string) => UserRecord {
  return (id) => found.get(id) ?? formerUser(id);
}

/** The users of these ids, loaded in one query, as a lookup that answers every id. */
export async function readPeople(db: Queryable, ids: Iterable<string>): Promise<(id: string) => UserRecord> {
  return peopleLookup(await commentPeople(db, ids));
}
