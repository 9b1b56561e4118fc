// Issue 54's figures for access and the audit log: a page read by a member whose role comes from
// grants (their team's among twenty teams, two hundred grants in all) against one whose role is
// the organization's; and what writing the audit event adds to a change's transaction.
import path from 'node:path';
import { recordAudit, userActor } from '../domain/audit/index.js';
import { openDatabase } from '../storage/db.js';
import { putGrant } from '../storage/contentGrants.js';
import { addMembership, updateMemberRole } from '../storage/members.js';
import { insertOrganization } from '../storage/organizations.js';
import { insertTeam, putTeamMember } from '../storage/teams.js';
import { createToken } from '../storage/tokens.js';
import { createUser } from '../storage/users.js';
import { fmt, latency, median, quireWithOrganization, spread, tempDataDir } from './lib.js';

export async function benchAccess(): Promise<Record<string, string>> {
  return { ...(await pageReadWithGrants()), ...(await auditWriteCost()) };
}

async function pageReadWithGrants(): Promise<Record<string, string>> {
  const { dataDir, organizationId, server, api } = await quireWithOrganization();
  try {
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: 'Read', template: { id: 'getting-started' } });
    const pageId = ((await api('GET', `/spaces/${space.id}/content/pages`)).pages as Array<{ id: string }>)[0]!.id;
    // Beside the running server, as another node would: a reader by role, and a guest reached through one of twenty teams.
    const db = await openDatabase(path.join(dataDir, 'quire.sqlite'));
    const tokens = await db.transaction(async (tx) => {
      const reader = await createUser(tx, { email: 'reader@example.com' });
      await addMembership(tx, { organizationId, userId: reader.id, role: 'read' });
      const guest = await createUser(tx, { email: 'guest@example.com' });
      await addMembership(tx, { organizationId, userId: guest.id, role: null });
      for (let team = 0; team < 20; team += 1) {
        const made = await insertTeam(tx, { organizationId, title: `Team ${team}` });
        await putTeamMember(tx, made.id, guest.id, 'member');
        for (let grant = 0; grant < 10; grant += 1) {
          const target = team === 19 && grant === 9 ? { kind: 'space' as const, id: space.id as string } : { kind: 'collection' as const, id: `elsewhere-${team}-${grant}` };
          await putGrant(tx, { organizationId, target, grantee: { kind: 'team', id: made.id }, role: 'read' });
        }
      }
      return { reader: (await createToken(tx, reader.id)).token, guest: (await createToken(tx, guest.id)).token };
    });
    await db.close();
    const url = `${server.url}/v1/spaces/${space.id}/content/page/${pageId}`;
    const byRole: number[] = [];
    const byGrant: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      byRole.push((await latency(url, { authorization: `Bearer ${tokens.reader}` }, 200)).median);
      byGrant.push((await latency(url, { authorization: `Bearer ${tokens.guest}` }, 200)).median);
    }
    return {
      'page read, role from the organization (median ms, 5 rounds of 200)': spread(byRole, 3),
      'page read, role from a team grant among 200 (median ms)': spread(byGrant, 3),
      'grants in play vs none (ratio of medians)': fmt(median(byGrant) / median(byRole), 3),
    };
  } finally {
    await server.stop();
  }
}

/** The same role change, in its own durable transaction, with and without its audit event: rounds alternate. */
async function auditWriteCost(): Promise<Record<string, string>> {
  const db = await openDatabase(path.join(tempDataDir(), 'quire.sqlite'));
  try {
    const { organizationId, member, actor } = await db.transaction(async (tx) => {
      const admin = await createUser(tx, { email: 'admin@example.com' });
      const organization = await insertOrganization(tx, { title: 'Audited', createdBy: admin.id });
      await addMembership(tx, { organizationId: organization.id, userId: admin.id, role: 'admin' });
      const user = await createUser(tx, { email: 'member@example.com' });
      await addMembership(tx, { organizationId: organization.id, userId: user.id, role: 'read' });
      return { organizationId: organization.id, member: user.id, actor: userActor(admin, 'api') };
    });
    const plain: number[] = [];
    const audited: number[] = [];
    let flip = 0;
    const change = async (withEvent: boolean) => {
      const role = flip++ % 2 === 0 ? 'comment' : 'read';
      const started = process.hrtime.bigint();
      await db.transaction(async (tx) => {
        await updateMemberRole(tx, organizationId, member, role);
        if (withEvent) await recordAudit(tx, actor, organizationId, { action: 'member.role_changed', target: { type: 'user', id: member }, payload: { to: role } });
      });
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    for (let round = 0; round < 10; round += 1) {
      for (let i = 0; i < 50; i += 1) plain.push(await change(false));
      for (let i = 0; i < 50; i += 1) audited.push(await change(true));
    }
    return {
      'role change, durable transaction (median ms, n=500)': fmt(median(plain), 3),
      'the same with its audit event (median ms, n=500)': fmt(median(audited), 3),
      'audit event adds (ms, difference of medians)': fmt(median(audited) - median(plain), 3),
    };
  } finally {
    await db.close();
  }
}
