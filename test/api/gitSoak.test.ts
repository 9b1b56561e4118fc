import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { repackSpace } from '../../domain/git/index.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { git, ok } from '../helpers/gitClient.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('git remote soak: pushes, API writes, merges and repacks at once');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

const work = mkdtempSync(path.join(tmpdir(), 'quire-git-soak-'));
test.after(() => rmSync(work, { recursive: true, force: true }));

/** A refusal a racing push may meet: the branch moved since it fetched, or main was not fast-forwarded. */
const raceRefusal = /not where this push started from|not a fast-forward of main|fetch first|non-fast-forward/;

test('twelve rounds of pushes to main and to change requests, API batches and merges, a repack every fourth: all acknowledged work is there, fsck is clean', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Soak', template: { id: 'getting-started' } } })).body;
  const remote = `${t.url.replace('://', `://soak:${fx.admin.token}@`)}/git/${space.id}.git`;
  const clone = path.join(work, 'clone');
  await ok(work, 'clone', '--quiet', remote, clone);
  const acknowledged = { mainCommits: [] as string[], batches: [] as Array<{ changeRequest: string; title: string }> };
  const changeRequests: Array<{ id: string; number: number }> = [];
  for (let index = 0; index < 3; index += 1) {
    changeRequests.push((await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: `Soak ${index}` } })).body);
  }

  for (let round = 0; round < 12; round += 1) {
    await ok(clone, 'fetch', '--quiet', 'origin');
    await ok(clone, 'checkout', '--quiet', '--detach', 'origin/main');
    writeFileSync(path.join(clone, `round-${round}.md`), `# Round ${round}\n\nPushed.\n`);
    await ok(clone, 'add', '-A');
    await ok(clone, 'commit', '-qm', `Round ${round}`);
    const commit = await ok(clone, 'rev-parse', 'HEAD');
    // Change request #1 is merged in round 7: batches go to the other two after it.
    const target = round > 7 ? changeRequests[1 + (round % 2)]! : changeRequests[round % 3]!;
    const work: Array<Promise<unknown>> = [
      git(clone, 'push', 'origin', 'HEAD:main').then((pushed) => {
        if (pushed.code === 0) acknowledged.mainCommits.push(commit);
        else assert.match(pushed.stderr, raceRefusal);
      }),
      t
        .call('POST', `/v1/spaces/${space.id}/change-requests/${target.id}/content`, {
          token: fx.editor.token,
          body: { changes: [{ operation: 'insert_page', title: `Batch ${round}`, document: { markdown: `Batch ${round}.\n` } }] },
        })
        .then((response) => {
          assert.is(response.status, 200, JSON.stringify(response.body));
          acknowledged.batches.push({ changeRequest: target.id, title: `Batch ${round}` });
        }),
    ];
    if (round % 4 === 3) work.push(repackSpace({ repositories: t.server.repositories }, space.id));
    if (round === 7) {
      work.push(
        t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequests[0]!.id}/merge`, { token: fx.admin.token }).then((merged) => {
          assert.is(merged.status, 200, JSON.stringify(merged.body));
        }),
      );
    }
    await Promise.all(work);
  }

  const gitdir = spaceGitdir(t.dataDir, space.id);
  assert.is((await git(gitdir, 'fsck', '--strict', '--no-progress', '--no-dangling')).code, 0);
  const main = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision;
  assert.ok(acknowledged.mainCommits.length > 0, 'some pushes to main landed');
  for (const commit of acknowledged.mainCommits) assert.is((await git(gitdir, 'merge-base', '--is-ancestor', commit, main)).code, 0, `${commit} is in main`);
  // Change request #1 was merged in round 7: the batches acknowledged into it before are on main.
  const mainTitles = ((await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ title: string }>).map((page) => page.title);
  const intoMerged = acknowledged.batches.filter((entry) => entry.changeRequest === changeRequests[0]!.id);
  assert.ok(intoMerged.length >= 3, `${intoMerged.length} batches went into change request #1 before its merge`);
  for (const batch of intoMerged) assert.ok(mainTitles.includes(batch.title), `${batch.title}, merged with change request #1, is on main`);
  for (const changeRequest of changeRequests.slice(1)) {
    const titles = ((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`, { token: fx.editor.token })).body.pages as Array<{ title: string }>).map(
      (page) => page.title,
    );
    for (const batch of acknowledged.batches.filter((entry) => entry.changeRequest === changeRequest.id))
      assert.ok(titles.includes(batch.title), `${batch.title} is in change request ${changeRequest.number}`);
  }
});

test.run();
