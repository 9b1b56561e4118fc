import type { Queryable } from './db.js';
import { hashToken, newId, newToken, now } from './ids.js';

/** A sign-in through an identity provider, between leaving for it and coming back. */
export interface SignInFlowRecord {
  id: string;
  kind: 'oidc' | 'saml';
  /** What the return is checked against, and where the person goes after: the kind's own fields. */
  data: Record<string, string>;
  /** Set once a SAML response was accepted for this flow. */
  userId: string | null;
  expiresAt: string;
}

interface FlowRow {
  id: string;
  kind: 'oidc' | 'saml';
  data: string;
  user_id: string | null;
  expires_at: string;
}

const toFlow = (row: FlowRow): SignInFlowRecord => ({ id: row.id, kind: row.kind, data: JSON.parse(row.data) as Record<string, string>, userId: row.user_id, expiresAt: row.expires_at });
const live = (row: FlowRow | undefined) => (row && Date.parse(row.expires_at) > Date.now() ? toFlow(row) : undefined);

/** Stores a flow and returns the only plaintext copy of its cookie's value; flows long expired are swept meanwhile. */
export async function createSignInFlow(
  db: Queryable,
  input: { kind: SignInFlowRecord['kind']; data: Record<string, string>; lifetimeMs: number },
): Promise<{ cookie: string; flow: SignInFlowRecord }> {
  const cookie = newToken();
  // An XML ID (the SAML request's) starts with a letter or an underscore.
  const flow: SignInFlowRecord = { id: `_${newId()}`, kind: input.kind, data: input.data, userId: null, expiresAt: new Date(Date.now() + input.lifetimeMs).toISOString() };
  await db.run('DELETE FROM sign_in_flows WHERE expires_at < ?', [new Date(Date.now() - 86_400_000).toISOString()]);
  await db.run('INSERT INTO sign_in_flows (id, flow_hash, kind, data, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, NULL, ?, ?)', [
    flow.id,
    hashToken(cookie),
    flow.kind,
    JSON.stringify(flow.data),
    now(),
    flow.expiresAt,
  ]);
  return { cookie, flow };
}

/** The live flow a browser's cookie names. */
export async function findSignInFlowByCookie(db: Queryable, cookie: string): Promise<SignInFlowRecord | undefined> {
  if (cookie.length > 256) return undefined;
  return live(await db.get<FlowRow>('SELECT id, kind, data, user_id, expires_at FROM sign_in_flows WHERE flow_hash = ?', [hashToken(cookie)]));
}

/** The live flow of this id (a SAML response's InResponseTo). */
export async function findSignInFlow(db: Queryable, id: string): Promise<SignInFlowRecord | undefined> {
  return live(await db.get<FlowRow>('SELECT id, kind, data, user_id, expires_at FROM sign_in_flows WHERE id = ?', [id]));
}

/** Records who the provider said signed in, once: false when the flow already had someone. */
export async function completeSignInFlow(db: Queryable, id: string, userId: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE sign_in_flows SET user_id = ? WHERE id = ? AND user_id IS NULL', [userId, id]);
  return changes > 0;
}

/** Ends a flow: false when it was gone already (used by another request). */
export async function removeSignInFlow(db: Queryable, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM sign_in_flows WHERE id = ?', [id]);
  return changes > 0;
}
