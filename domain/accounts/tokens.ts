import type { Database, Transaction } from '../../storage/db.js';
import { listOrganizationIdsOfUser } from '../../storage/members.js';
import { recordAudit, type Actor } from '../audit/index.js';
import { createToken, listTokens, revokeToken, type TokenRecord } from '../../storage/tokens.js';
import type { UserRecord } from '../../storage/users.js';
import { invalidInput, missing } from '../common/errors.js';

/** A person's own API tokens, from the web app: listed (never their values), made, revoked. */
export const tokensOf = (db: Database, user: UserRecord): Promise<TokenRecord[]> => listTokens(db, user.id);

/** A new token of the person's; its value is returned this once. */
export async function issueOwnToken(db: Database, actor: Actor, user: UserRecord, label: string): Promise<string> {
  const trimmed = label.trim();
  if (!trimmed || trimmed.length > 100) throw invalidInput('A token needs a label of 1 to 100 characters, to tell it from the others');
  return db.transaction(async (tx) => {
    const created = await createToken(tx, user.id, { label: trimmed });
    await recordTokenEvent(tx, actor, 'token.created', created.record);
    return created.token;
  });
}

export async function revokeOwnToken(db: Database, actor: Actor, user: UserRecord, tokenId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const token = (await listTokens(tx, user.id)).find((candidate) => candidate.id === tokenId);
    if (!token || !(await revokeToken(tx, tokenId))) throw missing(`Token ${tokenId} not found`);
    await recordTokenEvent(tx, actor, 'token.revoked', token);
  });
}

/** A token is a person's, not an organization's: its event goes to each organization they belong to. */
export async function recordTokenEvent(tx: Transaction, actor: Actor, action: 'token.created' | 'token.revoked', token: TokenRecord): Promise<void> {
  await recordAudit(tx, actor, await listOrganizationIdsOfUser(tx, token.userId), {
    action,
    target: { type: 'token', id: token.id, ...(token.label !== null && { label: token.label }) },
    payload: { owner: token.userId, ...(token.expiresAt && { expiresAt: token.expiresAt }) },
  });
}
