import { deleteGrant, findGrant, listTeamGrants, listUserGrants, putGrant, type Grantee, type PermissionTarget } from '../../storage/contentGrants.js';
import type { PageRequest } from '../../storage/pagination.js';
import type { Database, Queryable } from '../../storage/db.js';
import { findMember, type MemberRole } from '../../storage/members.js';
import { findTeam } from '../../storage/teams.js';
import { missing } from '../common/errors.js';
import { recordAudit, type Actor, type AuditedChange } from '../audit/index.js';

/** Who an invitation names: people and teams of the organization (`inviteToSpace` and its kin). */
export interface Invitees {
  users?: string[];
  teams?: string[];
}

/**
 * Gives each person and team the role on the target, replacing what they had there; `null`
 * takes their grant away (a grant never lowers what the organization role gives, so "no role
 * here" can only mean no grant). A person must be a member of the organization (guests
 * included) and a team one of its teams; any other name is a 404 and nothing is changed.
 */
export async function inviteToTarget(db: Database, actor: Actor, organizationId: string, target: PermissionTarget, role: MemberRole | null, invitees: Invitees): Promise<void> {
  const grantees: Grantee[] = [...new Set(invitees.users ?? [])].map((id) => ({ kind: 'user', id }));
  grantees.push(...[...new Set(invitees.teams ?? [])].map((id): Grantee => ({ kind: 'team', id })));
  await db.transaction(async (tx) => {
    for (const grantee of grantees) {
      await assertGrantee(tx, organizationId, grantee);
      if (role === null) {
        if (await deleteGrant(tx, target, grantee)) await recordAudit(tx, actor, organizationId, revoked(target, grantee));
      } else if ((await findGrant(tx, target, grantee)) !== role) {
        await putGrant(tx, { organizationId, target, grantee, role });
        await recordAudit(tx, actor, organizationId, { action: 'permission.granted', target: { type: target.kind, id: target.id }, payload: { [grantee.kind]: grantee.id, role } });
      }
    }
  });
}

/**
 * Sets one person's or team's role on the target (`null`: no grant), as inviteToTarget; with no
 * role given (a PATCH of `{}`) nothing changes, but the person or team must still be there.
 */
export async function setGrant(db: Database, actor: Actor, organizationId: string, target: PermissionTarget, grantee: Grantee, role: MemberRole | null | undefined): Promise<void> {
  if (role === undefined) return assertGrantee(db, organizationId, grantee);
  return inviteToTarget(db, actor, organizationId, target, role, grantee.kind === 'user' ? { users: [grantee.id] } : { teams: [grantee.id] });
}

/** Takes one person's or team's grant away; false when they had none. */
export function removeGrant(db: Database, actor: Actor, organizationId: string, target: PermissionTarget, grantee: Grantee): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await deleteGrant(tx, target, grantee);
    if (removed) await recordAudit(tx, actor, organizationId, revoked(target, grantee));
    return removed;
  });
}

const revoked = (target: PermissionTarget, grantee: Grantee): AuditedChange => ({
  action: 'permission.revoked',
  target: { type: target.kind, id: target.id },
  payload: { [grantee.kind]: grantee.id },
});

async function assertGrantee(db: Queryable, organizationId: string, grantee: Grantee): Promise<void> {
  if (grantee.kind === 'user') {
    if (!(await findMember(db, organizationId, grantee.id))) throw missing(`User ${grantee.id} is not a member of this organization`);
  } else if (!(await findTeam(db, organizationId, grantee.id))) {
    throw missing(`Team ${grantee.id} not found in this organization`);
  }
}

/** The people given a role on the target themselves, oldest grant first. */
export function listPeopleGranted(db: Queryable, organizationId: string, target: PermissionTarget, request: PageRequest) {
  return listUserGrants(db, organizationId, target, request);
}

/** The teams given a role on the target, oldest grant first. */
export function listTeamsGranted(db: Queryable, organizationId: string, target: PermissionTarget, request: PageRequest) {
  return listTeamGrants(db, organizationId, target, request);
}
