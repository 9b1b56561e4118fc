import type { Database, Transaction } from '../../storage/db.js';
import { ensureMembership } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SamlProviderRecord } from '../../storage/samlProviders.js';
import { ensureTeamMember } from '../../storage/teams.js';
import { createUser, findUserByEmail, type UserRecord } from '../../storage/users.js';
import { openSession } from './sessions.js';
import { recordAudit } from '../audit/index.js';

/**
 * The user an identity provider vouched for, by the email it gave: found, or created (the
 * operator or the organization trusts that provider to own its people's emails). Two first
 * sign-ins of one person at once make one user: the second finds the first's.
 */
export async function userOfProvider(db: Database, claims: { email: string; name?: string }): Promise<UserRecord> {
  const found = await findUserByEmail(db, claims.email);
  if (found) return found;
  try {
    return await db.transaction((tx) => createUser(tx, { email: claims.email, ...(claims.name ? { displayName: claims.name } : {}), emailVerified: true }));
  } catch (error) {
    const raced = await findUserByEmail(db, claims.email);
    if (raced) return raced;
    throw error;
  }
}

/**
 * Someone a SAML provider signed in joins its organization if they weren't a member: with the
 * provider's default role (or the organization's when it names none), as a member who signs in
 * through SSO, and in the provider's default team.
 */
export async function joinThroughSaml(tx: Transaction, organization: OrganizationRecord, provider: SamlProviderRecord, user: UserRecord): Promise<void> {
  const role = provider.defaultRole ?? organization.defaultRole;
  const joined = await ensureMembership(tx, { organizationId: organization.id, userId: user.id, role, sso: true });
  if (!joined) return;
  if (provider.defaultTeamId) await ensureTeamMember(tx, provider.defaultTeamId, user.id);
  const self = { type: 'user' as const, id: user.id, label: user.displayName, source: 'ui' as const };
  await recordAudit(tx, self, organization.id, { action: 'member.joined', target: { type: 'user', id: user.id }, payload: { role, through: 'saml', provider: provider.id } });
}

/** A new session for a user an identity provider signed in. */
export const openProviderSession = (db: Database, userId: string, userAgent: string | undefined, method: 'oidc' | 'saml') => db.transaction((tx) => openSession(tx, userId, { userAgent, method }));
