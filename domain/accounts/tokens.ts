import type { Database } from '../../storage/db.js';
import { createToken, listTokens, revokeToken, type TokenRecord } from '../../storage/tokens.js';
import type { UserRecord } from '../../storage/users.js';
import { invalidInput, missing } from '../common/errors.js';

/** A person's own API tokens, from the web app: listed (never their values), made, revoked. */
export const tokensOf = (db: Database, user: UserRecord): Promise<TokenRecord[]> => listTokens(db, user.id);

/** A new token of the person's; its value is returned this once. */
export async function issueOwnToken(db: Database, user: UserRecord, label: string): Promise<string> {
  const trimmed = label.trim();
  if (!trimmed || trimmed.length > 100) throw invalidInput('A token needs a label of 1 to 100 characters, to tell it from the others');
  return (await createToken(db, user.id, { label: trimmed })).token;
}

export async function revokeOwnToken(db: Database, user: UserRecord, tokenId: string): Promise<void> {
  const own = (await listTokens(db, user.id)).some((token) => token.id === tokenId);
  if (!own || !(await revokeToken(db, tokenId))) throw missing(`Token ${tokenId} not found`);
}
