import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { auditActions, pruneAuditLog } from '../../domain/audit/index.js';
import { issueTokenByOperator } from '../../domain/organizations/index.js';
import { findSpace } from '../../storage/spaces.js';
import { purgeDeletedSpace } from '../../workflows/activities/purgeDeletedSpace.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser, signedInBrowser } from '../helpers/formBrowser.js';
import { ok } from '../helpers/gitClient.js';
import { givePasswords } from '../helpers/processes.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// The audit log (0.202.0's listOrganizationAuditEvents and its kin): every audited change leaves
// one event, written with the change or not at all, and only admins read them.
const test = suite('the audit log');
let t: TestServer;
let fx: OrganizationFixture;
let log: string;
let scratch: string;
const password = 'correct horse battery staple';

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  log = `/v1/orgs/${fx.org.id}/audit-events`;
});
test.before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'quire-audit-'));
  await givePasswords(t.dataDir, [fx.admin], password);
});
test.after(() => rmSync(scratch, { recursive: true, force: true }));

interface Event {
  id: string;
  action: string;
  actor: { type: string; id: string };
  source: string;
  target: { type: string; id: string };
  occurredAt: string;
}
const events = async (query = ''): Promise<Event[]> => {
  const listed = await t.call('GET', `${log}?limit=100${query}`, { token: fx.admin.token });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  return listed.body.items;
};
const latest = async (action: string) => (await events(`&action=${action}`))[0];

test('a role change is recorded with who, through what, on whom and what changed; only admins read the log', async () => {
  const changed = await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, { token: fx.admin.token, body: { role: 'comment' }, headers: { 'x-request-id': 'role-change-1' } });
  assert.is(changed.status, 200);
  const event = await latest('member.role_changed');
  assert.ok(event);
  assert.is(event!.actor.type, 'user');
  assert.is(event!.actor.id, fx.admin.id);
  assert.is(event!.source, 'api');
  assert.equal(event!.target, { type: 'user', id: fx.reader.id });
  const details = await t.call('GET', `${log}/${event!.id}`, { token: fx.admin.token });
  assert.is(details.status, 200);
  assert.equal(details.body.payload, { from: 'read', to: 'comment' });
  assert.is(details.body.correlationId, 'role-change-1');
  assert.is(details.body.schemaVersion, 1);
  // The same role again changes nothing, and records nothing.
  const before = (await events()).length;
  assert.is((await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, { token: fx.admin.token, body: { role: 'comment' } })).status, 200);
  assert.is((await events()).length, before);
  assert.is((await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, { token: fx.admin.token, body: { role: 'read' } })).status, 200);

  assertErrorIs(await t.call('GET', log, { token: fx.creator.token }), 403, 'This operation needs the admin role in the organization; you are create');
  assertErrorIs(await t.call('GET', `${log}/${event!.id}`, { token: fx.outsider.token }), 404, `Organization ${fx.org.id} not found`);
  assertErrorIs(await t.call('GET', `${log}/00000000-0000-4000-8000-000000000000`, { token: fx.admin.token }), 404, 'Audit event 00000000-0000-4000-8000-000000000000 not found');
  const actions = await t.call('GET', `/v1/orgs/${fx.org.id}/audit-event-actions`, { token: fx.admin.token });
  assert.is(actions.status, 200);
  assert.equal(
    actions.body.items.map((action: { id: string }) => action.id),
    Object.keys(auditActions),
  );
});

test('a change that fails records nothing, and an event that can’t be written stops its change', async () => {
  const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Audited' } });
  const before = (await events()).length;
  // The second invitee is unknown: the first one's grant and event, written before, roll back.
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.body.id}/permissions`, { token: fx.admin.token, body: { role: 'edit', users: [fx.guest.id, fx.outsider.id] } }),
    404,
    `User ${fx.outsider.id} is not a member of this organization`,
  );
  assertErrorIs(await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.admin.id}`, { token: fx.admin.token, body: { role: 'read' } }), 400, /Cannot demote the last admin.*/);
  assert.is((await events()).length, before, 'no event without its change');

  // The event's table refuses writes: the change it would record doesn't happen either.
  const db = t.server.db;
  if (db.dialect === 'postgres') {
    await db.run("CREATE FUNCTION refuse_audit() RETURNS trigger AS $body$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END $body$ LANGUAGE plpgsql");
    await db.run('CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit()');
  } else {
    await db.run("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END");
  }
  try {
    const refused = await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.editor.id}`, { token: fx.admin.token, body: { role: 'admin' } });
    assert.is(refused.status, 500);
    const granted = await t.call('POST', `/v1/spaces/${space.body.id}/permissions`, { token: fx.admin.token, body: { role: 'edit', users: [fx.guest.id] } });
    assert.is(granted.status, 500);
  } finally {
    await db.run('DROP TRIGGER refuse_audit' + (db.dialect === 'postgres' ? ' ON audit_events' : ''));
    if (db.dialect === 'postgres') await db.run('DROP FUNCTION refuse_audit()');
  }
  const editor = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.editor.id}`, { token: fx.admin.token });
  assert.is(editor.body.role, 'edit', 'no change without its event');
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.body.id}`, { token: fx.guest.token }), 404, `Space ${space.body.id} not found`);
  assert.is((await events()).length, before);
});

test('permissions, sites, spaces, merges and pushes are recorded; filters and pages walk the log', async () => {
  const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Recorded' } });
  const spaceId = space.body.id as string;
  assert.is((await t.call('POST', `/v1/spaces/${spaceId}/permissions`, { token: fx.admin.token, body: { role: 'read', users: [fx.guest.id] } })).status, 204);
  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}/permissions/users/${fx.guest.id}`, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: fx.admin.token, body: { defaultLevel: null } })).status, 200);

  const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Recorded site' } });
  assert.is((await t.call('PATCH', `/v1/orgs/${fx.org.id}/sites/${site.body.id}`, { token: fx.admin.token, body: { visibility: 'unlisted' } })).status, 200);
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.body.id}/publish`, { token: fx.admin.token })).status, 200);
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.body.id}/publish`, { token: fx.admin.token })).status, 200, 'published again: no change, no event');
  // A team's members reach what it is given: who joins is recorded.
  const team = await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Auditors' } });
  assert.is((await t.call('PUT', `/v1/orgs/${fx.org.id}/teams/${team.body.id}/members/${fx.editor.id}`, { token: fx.admin.token, body: {} })).status < 300, true);
  const joined = await latest('team.members_changed');
  assert.equal(joined!.target, { type: 'team', id: team.body.id, label: 'Auditors' });
  assert.equal((await t.call('GET', `${log}/${joined!.id}`, { token: fx.admin.token })).body.payload, { added: [fx.editor.id], removed: [] });

  // A change request merged, and a push to main.
  const opened = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.admin.token, body: { subject: 'Intro' } });
  assert.is(opened.status, 201, JSON.stringify(opened.body));
  const content = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${opened.body.id}/content`, {
    token: fx.admin.token,
    body: { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello' } }] },
  });
  assert.is(content.status, 200, JSON.stringify(content.body));
  const merged = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${opened.body.id}/merge`, { token: fx.admin.token });
  assert.is(merged.status, 200, JSON.stringify(merged.body));
  const work = path.join(scratch, 'work');
  const remote = `${t.url.replace('://', `://admin:${fx.admin.token}@`)}/git/${spaceId}.git`;
  await ok(scratch, 'clone', '--quiet', remote, work);
  writeFileSync(path.join(work, 'pushed.md'), '# Pushed\n\nFrom git.\n');
  await ok(work, 'add', '.');
  await ok(work, 'commit', '--quiet', '-m', 'Pushed page');
  const head = (await ok(work, 'rev-parse', 'HEAD')).trim();
  await ok(work, 'push', '--quiet', 'origin', 'HEAD:main');

  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('POST', `/v1/spaces/${spaceId}/restore`, { token: fx.admin.token })).status, 200);

  const onSpace = await events(`&target=${spaceId}`);
  assert.equal(
    onSpace.map((event) => event.action),
    ['space.restored', 'space.deleted', 'git.ref_updated', 'space.access_changed', 'permission.revoked', 'permission.granted'],
  );
  const push = await t.call('GET', `${log}/${onSpace[2]!.id}`, { token: fx.admin.token });
  assert.equal(push.body.payload, { ref: 'refs/heads/main', from: merged.body.revision, to: head });
  const merge = await latest('change_request.merged');
  assert.is(merge!.target.id, opened.body.id);
  assert.equal(
    (await events(`&target=${site.body.id}`)).map((event) => event.action),
    ['site.published', 'site.visibility_changed'],
  );

  // Filters: by actor, by time; pages of two, newest first, each event once.
  const all = await events();
  assert.ok(all.every((event) => event.occurredAt >= all[all.length - 1]!.occurredAt));
  assert.is((await events(`&actor=${fx.outsider.id}`)).length, 0);
  assert.is((await events(`&actor=${fx.admin.id}`)).length, all.filter((event) => event.actor.id === fx.admin.id).length);
  assert.is((await events(`&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).length, 0);
  const seen: string[] = [];
  for (let page: string | undefined, pages = 0; pages < 100; pages++) {
    const listed = await t.call('GET', `${log}?limit=2${page ? `&page=${page}` : ''}`, { token: fx.admin.token });
    seen.push(...listed.body.items.map((event: Event) => event.id));
    page = listed.body.next?.page;
    if (!page) break;
  }
  assert.equal(seen, all.map((event) => event.id).slice(0, seen.length));
  assert.is(seen.length, all.length);
  assertErrorIs(await t.call('GET', `${log}?limit=101`, { token: fx.admin.token }), 400, 'Invalid query parameter: "limit" must be <= 100');
});

test('the deletion job’s purge is recorded as Quire’s own, from a workflow', async () => {
  const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Purged' } });
  assert.is((await t.call('DELETE', `/v1/spaces/${space.body.id}`, { token: fx.admin.token })).status, 205);
  const { deletedAt } = (await findSpace(t.server.db, space.body.id, { includeDeleted: true }))!;
  const purge = purgeDeletedSpace({ db: t.server.db, dataDir: t.dataDir, repositories: t.server.repositories });
  assert.is(await purge({ spaceId: space.body.id, deletedAt: deletedAt! }), 'purged');
  const purged = await latest('space.purged');
  assert.equal(purged!.target, { type: 'space', id: space.body.id, label: 'Purged' });
  assert.equal(purged!.actor, { type: 'system', id: 'quire', label: 'space deletion job' });
  assert.is(purged!.source, 'workflow');
});

test('sign-ins to the app and tokens are recorded in each of the person’s organizations', async () => {
  const browser: FormBrowser = await signedInBrowser(t.url, fx.admin.email, password);
  const signIn = await latest('user.signed_in');
  assert.equal(signIn!.target, { type: 'user', id: fx.admin.id });
  assert.is(signIn!.source, 'ui');
  const settings = await browser.get('/app/settings');
  const made = await browser.post('/app/settings/tokens', { csrf: FormBrowser.field(settings.html, 'csrf'), label: 'Audited token' });
  assert.is(made.status, 201);
  const created = await latest('token.created');
  assert.is(created!.source, 'ui');
  assert.is((created!.target as { label?: string }).label, 'Audited token');
  await issueTokenByOperator(t.server.db, { email: fx.admin.email, label: 'From the CLI' });
  const byOperator = await latest('token.created');
  assert.equal(byOperator!.actor, { type: 'system', id: 'quire', label: 'operator' });
  assert.is(byOperator!.source, 'script');
});

test('the retention forgets old events and keeps the rest', async () => {
  const all = await events();
  const oldest = all[all.length - 1]!;
  await t.server.db.run('UPDATE audit_events SET occurred_at = ? WHERE id = ?', ['2020-01-01T00:00:00.000Z', oldest.id]);
  assert.is(await pruneAuditLog(t.server.db, 365 * 86_400_000), 1);
  const left = await events();
  assert.is(left.length, all.length - 1);
  assert.not.ok(left.some((event) => event.id === oldest.id));
});

test.run();
