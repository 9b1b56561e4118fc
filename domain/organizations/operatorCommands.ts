import type { Database, Queryable } from '../../storage/db.js';
import { ensureMembership, type MemberRole } from '../../storage/members.js';
import { findOrganization, markOrganizationDeleted } from '../../storage/organizations.js';
import { listAllSpacesOfOrganization } from '../../storage/spaces.js';
import { createToken, findToken, revokeToken } from '../../storage/tokens.js';
import { createUser, findUserByEmail, type UserRecord } from '../../storage/users.js';
import type { JobDeps } from '../common/deps.js';
import { deleteSpace } from '../spaces/index.js';
import { recordAudit, systemActor } from '../audit/index.js';
import { recordTokenEvent } from '../accounts/index.js';

/**
 * The instance operator's commands (the admin CLI): accounts, tokens and memberships made by
 * email, and deleting a whole organization. An operator vouches for the email, so it counts as
 * verified. A refusal is answered as a sentence for the command line, never thrown.
 */
export type Refused = { refused: string };

async function userOfEmail(db: Queryable, email: string): Promise<UserRecord> {
  return (await findUserByEmail(db, email)) ?? createUser(db, { email, emailVerified: true });
}

export function createUserByOperator(db: Database, input: { email: string; displayName?: string }): Promise<UserRecord | Refused> {
  return db.transaction(async (tx) => {
    if (await findUserByEmail(tx, input.email)) return { refused: `a user with email ${input.email} already exists` };
    return createUser(tx, { email: input.email, displayName: input.displayName, emailVerified: true });
  });
}

/** The user of that email, made when there is none (an organization's owner named by email). */
export function userByOperator(db: Database, email: string): Promise<UserRecord> {
  return db.transaction((tx) => userOfEmail(tx, email));
}

/** Adds the user of that email (made when missing) to the organization; `role` null makes a guest. */
export function addMemberByOperator(db: Database, input: { organizationId: string; email: string; role: MemberRole | null }): Promise<UserRecord | Refused> {
  return db.transaction(async (tx) => {
    if (!(await findOrganization(tx, input.organizationId))) return { refused: `no organization with id ${input.organizationId}` };
    const user = await userOfEmail(tx, input.email);
    if (!(await ensureMembership(tx, { organizationId: input.organizationId, userId: user.id, role: input.role }))) return { refused: `${user.email} is already a member` };
    await recordAudit(tx, operator, input.organizationId, { action: 'member.joined', target: { type: 'user', id: user.id, label: user.email }, payload: { role: input.role, through: 'operator' } });
    return user;
  });
}

/** A new token of the user of that email (made when missing); its value is shown this once. */
export function issueTokenByOperator(db: Database, input: { email: string; label?: string; expiresAt?: Date }): Promise<string> {
  return db.transaction(async (tx) => {
    const created = await createToken(tx, (await userOfEmail(tx, input.email)).id, { label: input.label, expiresAt: input.expiresAt });
    await recordTokenEvent(tx, operator, 'token.created', created.record);
    return created.token;
  });
}

export function revokeTokenByOperator(db: Database, tokenId: string): Promise<true | Refused> {
  return db.transaction(async (tx) => {
    const token = await findToken(tx, tokenId);
    if (!token || !(await revokeToken(tx, tokenId))) return { refused: `no token with id ${tokenId}` };
    await recordTokenEvent(tx, operator, 'token.revoked', token);
    return true;
  });
}

/** The operator, through the admin CLI. */
const operator = systemActor('script', 'operator');

/**
 * Spaces first, through the normal deletion (bin, then the purge job); then the organization
 * itself, with its members, teams, invitations and settings. A space whose job can't start stays
 * live and this throws: running it again finishes.
 */
export async function deleteOrganizationByOperator(deps: Pick<JobDeps, 'db' | 'jobs' | 'retentionMs'>, organizationId: string): Promise<{ title: string; spaces: number } | Refused> {
  const organization = await findOrganization(deps.db, organizationId);
  if (!organization) return { refused: `no organization with id ${organizationId}` };
  const spaces = await listAllSpacesOfOrganization(deps.db, organization.id);
  for (const space of spaces) await deleteSpace(deps, operator, space);
  if (!(await deps.db.transaction((tx) => markOrganizationDeleted(tx, organization.id)))) return { refused: `organization ${organizationId} was deleted meanwhile` };
  return { title: organization.title, spaces: spaces.length };
}
