import path from 'node:path';
import { openDatabase } from '../storage/db.js';
import { listMembers } from '../storage/members.js';
import { addMembership } from '../storage/members.js';
import { insertOrganization } from '../storage/organizations.js';
import { createUser } from '../storage/users.js';
import { tempDataDir } from './lib.js';
const db = await openDatabase(path.join(tempDataDir(), 'q.sqlite'));
const orgId = await db.transaction(async (tx) => {
  const admin = await createUser(tx, { email: 'a@b.c' });
  const o = await insertOrganization(tx, { title: 'x', createdBy: admin.id });
  for (let i = 0; i < 10000; i++) { const u = await createUser(tx, { email: `m${i}@x.y` }); await addMembership(tx, { organizationId: o.id, userId: u.id, role: 'read' }); }
  return o.id;
});
for (const sql of [
  `EXPLAIN QUERY PLAN SELECT COUNT(*) FROM memberships JOIN users ON users.id = memberships.user_id WHERE memberships.organization_id = ?`,
  `EXPLAIN QUERY PLAN SELECT memberships.user_id FROM memberships JOIN users ON users.id = memberships.user_id WHERE memberships.organization_id = ? ORDER BY memberships.joined_at desc, memberships.user_id desc LIMIT 101`]) console.log(await db.all(sql, [orgId]));
const time = async (label: string, fn: () => Promise<unknown>) => { const s = process.hrtime.bigint(); for (let i = 0; i < 200; i++) await fn(); console.log(label, Number(process.hrtime.bigint() - s) / 200 / 1e6, 'ms'); };
await time('count', () => db.get(`SELECT COUNT(*) FROM memberships JOIN users ON users.id = memberships.user_id WHERE memberships.organization_id = ?`, [orgId]));
await time('count-nojoin', () => db.get(`SELECT COUNT(*) FROM memberships WHERE memberships.organization_id = ?`, [orgId]));
await time('list', () => listMembers(db, orgId, {}, { limit: 100, order: 'desc' }));
await time('trivial', () => db.get(`SELECT 1`));
await db.close();
