import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { findSpacePurge } from '../../storage/spaceDeletion.js';
import { assertErrorIs, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { runAdmin } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('admin org delete');
let t: TestServer;
let fx: OrganizationFixture;
const retention = '1500ms';

test.before(
  reportingErrors(async () => {
    t = await startTestServer({ spaceRetentionMs: 1500 }, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => t.close());

const admin = (args: string[]) => {
  const { address, namespace, taskQueue } = t.server.jobs.settings;
  return runAdmin(args, { DATA_DIR: t.dataDir, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace, QUIRE_TASK_QUEUE: taskQueue, QUIRE_SPACE_RETENTION: retention });
};

test('deletes the organization at once and purges its spaces through their deletion jobs', async () => {
  const spaces = await Promise.all(['Handbook', 'API'].map(async (title) => (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title } })).body.id as string));
  await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Writers', members: [fx.editor.id] } });
  const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Docs' } });
  assert.is(site.status, 201, JSON.stringify(site.body));
  const elsewhere = (await t.call('GET', '/v1/orgs', { token: fx.outsider.token })).body.items[0].id;
  const kept = await t.call('POST', `/v1/orgs/${elsewhere}/spaces`, { token: fx.outsider.token, body: { title: 'Elsewhere' } });

  const deleted = await admin(['org', 'delete', '--id', fx.org.id]);
  assert.is(deleted.code, 0, deleted.stderr);
  assert.match(deleted.stdout, new RegExp(`deleted ${fx.org.id} \\(Acme Docs\\): 2 spaces in the bin`));

  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token }), 404, `Organization ${fx.org.id} not found`);
  assert.is((await t.call('GET', '/v1/orgs', { token: fx.editor.token })).body.count, 0, 'gone from its members’ lists');
  for (const id of spaces) assertErrorIs(await t.call('GET', `/v1/spaces/${id}`, { token: fx.admin.token }), 404, `Space ${id} not found`);
  assert.not.match((await admin(['org', 'list'])).stdout, fx.org.id);
  assert.is((await t.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM sites WHERE organization_id = ?', [fx.org.id]))?.n, 0, 'its docs sites went too');

  const purged = () => spaces.every((id) => !existsSync(spaceGitdir(t.dataDir, id)));
  await until('each space to be purged by its job once the retention passed', purged, 20_000);
  for (const id of spaces) assert.ok(await findSpacePurge(t.server.db, id), 'with its purge record');
  assert.is((await t.call('GET', `/v1/spaces/${kept.body.id}`, { token: fx.outsider.token })).status, 200, 'other organizations keep theirs');

  const again = await admin(['org', 'delete', '--id', fx.org.id]);
  assert.is(again.code, 2);
  assert.match(again.stderr, /no organization with id/);
});

test.run();
