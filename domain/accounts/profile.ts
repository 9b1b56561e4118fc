import type { Database } from '../../storage/db.js';
import { updateUser, type UserRecord } from '../../storage/users.js';
import { invalidInput, missing, notAllowed } from '../common/errors.js';

/**
 * A person changes their own name or picture (updateUserById); nobody changes another's, not even
 * an admin of an organization they share: a person may belong to several.
 */
export async function changeOwnProfile(db: Database, caller: UserRecord, userId: string, changes: { displayName?: string; photoURL?: string }): Promise<UserRecord> {
  if (userId !== caller.id) throw notAllowed('A user’s name and picture are changed by that user alone');
  if (changes.displayName !== undefined && !changes.displayName.trim()) throw invalidInput('"displayName" needs some text');
  const updated = await updateUser(db, userId, changes);
  if (!updated) throw missing(`User ${userId} not found`);
  return updated;
}
