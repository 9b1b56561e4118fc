import type { Database, Queryable } from '../../storage/db.js';
import { createAppSession } from '../../storage/appSessions.js';
import { ensureMembership } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SamlProviderRecord } from '../../storage/samlProviders.js';
import { ensureTeamMember } from '../../storage/teams.js';
import { createUser, findUserByEmail, type UserRecord } from '../../storage/users.js';
import { sessionLifetimeMs } from './sessions.js';

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
export async function joinThroughSaml(tx: Queryable, organization: OrganizationRecord, provider: SamlProviderRecord, user: UserRecord): Promise<void> {
  const joined = await ensureMembership(tx, { organizationId: organization.id, userId: user.id, role: provider.defaultRole ?? organization.defaultRole, sso: true });
  if (joined && provider.defaultTeamId) await ensureTeamMember(tx, provider.defaultTeamId, user.id);
}

/** A new session for a user an identity provider signed in. */
export const openProviderSession = (db: Queryable, userId: string, userAgent: string | undefined) => createAppSession(db, userId, { lifetimeMs: sessionLifetimeMs, userAgent });
