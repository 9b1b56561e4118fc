import type { Database } from '../../storage/db.js';
import { findPasswordHash, setPasswordHash } from '../../storage/appSessions.js';
import { addMembership, findMember, takeInvitation } from '../../storage/members.js';
import { findOrganization, type OrganizationRecord } from '../../storage/organizations.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import { createWelcomeLink, findWelcomeLink, useWelcomeLink } from '../../storage/welcomeLinks.js';
import { invalidInput, missing } from '../common/errors.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { openSession } from './sessions.js';
import { recordAudit } from '../audit/index.js';

/** How long a welcome link stays good. */
export const welcomeLifetimeMs = 7 * 86_400_000;

/**
 * Welcome links for the invited people who have no password yet (those with one sign in and
 * accept in the app): Quire sends no email, so the admin who invited them hands each one theirs.
 */
export async function welcomeLinksFor(db: Database, organization: OrganizationRecord, userIds: string[], createdBy: string): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  for (const userId of userIds) {
    if (await findPasswordHash(db, userId)) continue;
    if (await findMember(db, organization.id, userId)) continue;
    links.set(userId, await createWelcomeLink(db, { userId, organizationId: organization.id, createdBy, lifetimeMs: welcomeLifetimeMs }));
  }
  return links;
}

const expired = () => missing('This welcome link has expired or was used: ask whoever invited you for a new one');

/** Whom a welcome link is for, and the organization it joins. */
export async function readWelcome(db: Database, secret: string): Promise<{ user: UserRecord; organization: OrganizationRecord }> {
  const link = await findWelcomeLink(db, secret);
  const [user, organization] = link ? await Promise.all([findUser(db, link.userId), findOrganization(db, link.organizationId)]) : [];
  if (!user || !organization) throw expired();
  return { user, organization };
}

/**
 * The invited person sets their password and accepts the invitation, in one transaction: the link
 * is used up (every other link of theirs too), and they are signed in.
 */
export async function acceptWelcome(db: Database, secret: string, input: { password: string; userAgent?: string }) {
  const problem = passwordProblem(input.password);
  if (problem) throw invalidInput(problem);
  const { user, organization } = await readWelcome(db, secret);
  const hash = await hashPassword(input.password);
  const { cookie } = await db.transaction(async (tx) => {
    if (!(await useWelcomeLink(tx, secret, user.id))) throw expired();
    await setPasswordHash(tx, user.id, hash);
    const invitation = await takeInvitation(tx, organization.id, user.id);
    const member = await findMember(tx, organization.id, user.id);
    if (!invitation && !member) throw missing(`The invitation to ${organization.title} was withdrawn: ask whoever invited you`);
    if (invitation && !member) {
      await addMembership(tx, { organizationId: organization.id, userId: user.id, role: invitation.role, sso: invitation.sso });
      const self = { type: 'user' as const, id: user.id, source: 'ui' as const };
      await recordAudit(tx, self, organization.id, { action: 'member.joined', target: { type: 'user', id: user.id }, payload: { role: invitation.role, through: 'welcome link' } });
    }
    return openSession(tx, user.id, { userAgent: input.userAgent, method: 'welcome link' });
  });
  return { cookie, organization };
}
