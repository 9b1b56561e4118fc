import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { spaceHeadStates } from '../../storage/spaceHeads.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { gitValue as git } from '../helpers/gitClient.js';

// A process killed after a space's branch moved and before it recorded the new head and refreshed
// the search index leaves the database behind the repository. A storage node catches up when it
// takes its storage; an instance of one node does so at start.
const test = suite('start: the recorded heads and search catch up with the repositories');
const work = mkdtempSync(path.join(tmpdir(), 'quire-start-reconcile-'));
let server: TestServer | undefined;
test.after(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

test('a branch moved behind Quire’s back while it was down is the listed revision and the indexed one after a restart', async () => {
  server = await startTestServer();
  const owner = await server.user();
  const organization = (await server.call('POST', '/v1/orgs', { token: owner.token, body: { title: 'Docs' } })).body.id as string;
  const space = (await server.call('POST', `/v1/orgs/${organization}/spaces`, { token: owner.token, body: { title: 'Handbook', template: { id: 'getting-started' } } })).body;
  await until('the first revision to be indexed', async () => (await spaceHeadStates(server!.server.db, 'local', '', 10))[0]?.indexed === space.revision, 10_000);
  const { dataDir } = server;
  await server.close({ keepData: true });
  server = undefined;

  // What a process killed right after moving the branch leaves: a new commit on main, nothing recorded.
  const gitdir = spaceGitdir(dataDir, space.id);
  const clone = path.join(work, 'clone');
  git(work, 'clone', '--quiet', gitdir, clone);
  writeFileSync(path.join(clone, 'landed.md'), '# Landed\n\nThe word zanzibarquux is only here.\n');
  appendFileSync(path.join(clone, 'SUMMARY.md'), '* [Landed](landed.md)\n');
  git(clone, 'add', '-A');
  git(clone, 'commit', '-qm', 'Landed while Quire was down');
  const moved = git(clone, 'rev-parse', 'HEAD');
  git(work, '--git-dir', gitdir, 'fetch', '--quiet', clone, `+refs/heads/main:refs/heads/main`);

  server = await startTestServer({}, { dataDir });
  await until(
    'the head and the index to catch up, with no request asking',
    async () => {
      const [state] = await spaceHeadStates(server!.server.db, 'local', '', 10);
      return state?.recorded === moved && state.indexed === moved;
    },
    15_000,
  );
  const listed = (await server.call('GET', `/v1/orgs/${organization}/spaces`, { token: owner.token })).body.items as Array<{ id: string; revision: string }>;
  assert.is(listed.find((item) => item.id === space.id)?.revision, moved);
  const found = await server.call('GET', `/v1/spaces/${space.id}/search?query=zanzibarquux`, { token: owner.token });
  assert.equal(
    (found.body.items as Array<{ title: string }>).map((item) => item.title),
    ['Landed'],
  );
});

test.run();
