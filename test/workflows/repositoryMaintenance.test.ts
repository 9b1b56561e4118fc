import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { looseObjectCount } from '../../engine/git/repack.js';
import { repackSpace } from '../../domain/git/index.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { runAdmin } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { testTemporalSettings } from '../helpers/temporal.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('repository maintenance: repacks while spaces are read and written, on a Temporal schedule');
let t: TestServer;
let fx: OrganizationFixture;

test.before(
  reportingErrors(async () => {
    const temporal = { ...(await testTemporalSettings()), repackLooseObjects: 20 };
    t = await startTestServer({ temporal }, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => t?.close());

type Page = { id: string; title: string; pages?: Page[] };

async function spaceWithChangeRequest(title: string) {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: title } })).body;
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Page[];
  return { space, base: `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, page: pages[0]! };
}

const edit = (base: string, pageId: string, round: number) =>
  t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: `Round ${round} of edits.\n` } }] } });

/** The ids of the repository's loose objects. */
const looseObjects = (gitdir: string): string[] =>
  readdirSync(path.join(gitdir, 'objects'))
    .filter((folder) => /^[0-9a-f]{2}$/.test(folder))
    .flatMap((folder) => (existsSync(path.join(gitdir, 'objects', folder)) ? readdirSync(path.join(gitdir, 'objects', folder)).map((rest) => folder + rest) : []));

test('a repack under concurrent writes and reads loses nothing; the repository ends packed and fsck-clean', async () => {
  const { space, base, page } = await spaceWithChangeRequest('Busy');
  const gitdir = spaceGitdir(t.dataDir, space.id);
  for (let round = 0; round < 10; round += 1) assert.is((await edit(base, page.id, round)).status, 200);
  assert.ok((await looseObjectCount(gitdir)) > 20);
  const looseAtStart = looseObjects(gitdir);

  let writing = true;
  let round = 10;
  const writes = (async () => {
    while (writing) {
      const response = await edit(base, page.id, round);
      assert.is(response.status, 200, JSON.stringify(response.body));
      round += 1;
    }
  })();
  const reads = (async () => {
    while (writing) {
      const read = await t.call('GET', `${base}/content/page/${page.id}?format=markdown`, { token: fx.reader.token });
      assert.is(read.status, 200, JSON.stringify(read.body));
    }
  })();
  const outcome = await repackSpace({ repositories: t.server.repositories }, space.id);
  await new Promise((resolve) => setTimeout(resolve, 200));
  writing = false;
  await Promise.all([writes, reads]);

  assert.ok(outcome.looseBefore > 20, `${outcome.looseBefore} loose objects before`);
  assert.ok(round > 10, 'writes went on during the repack');
  const last = await t.call('GET', `${base}/content/page/${page.id}?format=markdown`, { token: fx.reader.token });
  assert.match(last.body.markdown, `Round ${round - 1} of edits.`, 'the last write is what the change request reads');
  git(gitdir, 'fsck', '--no-progress', '--no-dangling');
  // What was loose when the repack began is packed; only objects of the writes made meanwhile may
  // be loose (how many depends on how fast the machine is, so they aren't counted).
  const stillLoose = new Set(looseObjects(gitdir));
  assert.equal(
    looseAtStart.filter((oid) => stillLoose.has(oid)),
    [],
    `of ${looseAtStart.length} objects loose before, none is loose after`,
  );
  for (const oid of looseAtStart.slice(0, 5)) assert.is(git(gitdir, 'cat-file', '-t', oid).trim().length > 0, true, `${oid} is in a pack`);
  assert.match(git(gitdir, 'count-objects', '-v'), /^packs: [1-9]/m);
});

test('the maintenance schedule repacks every space past the threshold', async () => {
  const { space, base, page } = await spaceWithChangeRequest('Scheduled');
  const gitdir = spaceGitdir(t.dataDir, space.id);
  for (let round = 0; round < 10; round += 1) await edit(base, page.id, round);
  assert.ok((await looseObjectCount(gitdir)) >= 20);
  const scheduleId = await t.server.jobs.ensureRepositoryMaintenance();
  const settings = await testTemporalSettings();
  const connection = await Connection.connect({ address: settings.address });
  try {
    const client = new Client({ connection, namespace: settings.namespace });
    const described = await client.schedule.getHandle(scheduleId).describe();
    assert.equal((described.action as { args?: unknown[] }).args, [{ looseObjects: 20 }]);
    await client.schedule.getHandle(scheduleId).trigger();
    await until('the space to be repacked', async () => (await looseObjectCount(gitdir)) < 20, 60_000, 100);
    await client.schedule.getHandle(scheduleId).delete();
  } finally {
    await connection.close();
  }
  git(gitdir, 'fsck', '--no-progress', '--no-dangling');
  assert.match((await t.call('GET', `${base}/content/page/${page.id}?format=markdown`, { token: fx.reader.token })).body.markdown, 'Round 9 of edits.');
});

test('`npm run admin -- space repack <id>` repacks now, and names a space it does not know', async () => {
  const { space, base, page } = await spaceWithChangeRequest('By hand');
  for (let round = 0; round < 3; round += 1) await edit(base, page.id, round);
  const ran = await runAdmin(['space', 'repack', space.id], { DATA_DIR: t.dataDir });
  assert.is(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, new RegExp(`^repacked ${space.id} in \\d+ ms: \\d+ loose objects before, 0 after`));
  assert.is(await looseObjectCount(spaceGitdir(t.dataDir, space.id)), 0);
  const unknown = await runAdmin(['space', 'repack', 'no-such-space'], { DATA_DIR: t.dataDir });
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, 'no live space with id no-such-space');
});

test.run();
