import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { purgeSpace } from '../../api/commands/spaces.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertError } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('space lifecycle: retention and purge');
let t: TestServer;
let admin: { token: string };
let orgId: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer({ spaceRetentionMs: 400 });
    admin = await t.user();
    orgId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Lifecycle' } })).body.id;
  }),
);
test.after(async () => t.close());

const newSpace = async () => (await t.call('POST', `/v1/orgs/${orgId}/spaces`, { token: admin.token, body: { title: 'Short-lived', template: { id: 'getting-started' } } })).body;

test('restore works inside the retention window only', async () => {
  const space = await newSpace();
  await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token });
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: admin.token })).status, 200);
  await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assertError(await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: admin.token }), 404, 'too long ago');
});

test('purge removes the repository, the row and the search index; afterwards get and restore are 404', async () => {
  const space = await newSpace();
  assert.ok((await t.call('GET', `/v1/orgs/${orgId}/search?query=configuration`, { token: admin.token })).body.items.some((item: { id: string }) => item.id === space.id));
  await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token });
  await purgeSpace({ db: t.server.db, dataDir: t.dataDir }, space.id);
  await purgeSpace({ db: t.server.db, dataDir: t.dataDir }, space.id); // twice is harmless
  assert.not.ok(existsSync(spaceGitdir(t.dataDir, space.id)));
  assertError(await t.call('GET', `/v1/spaces/${space.id}`, { token: admin.token }), 404, 'not found');
  assertError(await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: admin.token }), 404, 'not found');
  const count = await t.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM search_pages WHERE space_id = ?', [space.id]);
  assert.is(count?.n, 0);
});

test.run();
