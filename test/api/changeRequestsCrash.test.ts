import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { until } from '../helpers/poll.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { bootstrappedService } from '../helpers/bootstrappedService.js';

const test = suite('change requests and a killed server');
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-crash-'));
const services = bootstrappedService(dataDir);
test.after(async () => {
  await services.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

const { start, call } = services;

interface Page {
  title: string;
  pages: Page[];
}
const titles = (pages: Page[]): string[] => pages.flatMap((page) => [page.title, ...titles(page.pages ?? [])]);

test('SIGKILL during a stream of concurrent batches: every batch answered 2xx is there after a restart, and git fsck is clean', async () => {
  const first = await start();
  const organization = (await call(first, 'GET', '/v1/orgs')).body.items[0].id;
  const space = (await call(first, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Crash', template: { id: 'blank' } })).body;
  const changeRequest = (await call(first, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Crash' })).body;
  const content = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;

  // 50 batches at a time, each answer sending the next, until the server is dead: the kill always
  // lands with batches under way. (A fixed 200 were once all answered first: group commits answer
  // a whole group at once, and a busy machine makes the groups larger.)
  const answered: string[] = [];
  const pending = new Set<Promise<void>>();
  let sent = 0;
  let killed = false;
  const send = () => {
    if (killed || sent >= 5_000) return;
    const index = sent++;
    const batch = call(first, 'POST', content, { changes: [{ operation: 'insert_page', title: `Batch ${index}`, document: { markdown: `Written by batch ${index}.\n` } }] }).then(
      (response) => {
        if (response.status === 200) answered.push(`Batch ${index}`);
        send();
      },
      () => undefined, // the connection died with the server: this batch may or may not have landed
    );
    pending.add(batch);
    void batch.finally(() => pending.delete(batch));
  };
  for (let slot = 0; slot < 50; slot++) send();
  await until('the first batch to be answered', () => answered.length > 0, 20_000, 5);
  await first.stop('SIGKILL');
  killed = true;
  while (pending.size > 0) await Promise.all([...pending]);
  assert.ok(answered.length > 0 && answered.length < sent, `killed mid-way: ${answered.length} of ${sent} answered`);

  const second = await start();
  const pages = (await call(second, 'GET', `${content}/pages`)).body.pages as Page[];
  const present = new Set(titles(pages));
  for (const title of answered) assert.ok(present.has(title), `${title} was answered 200 and is there`);
  execFileSync('git', ['-C', spaceGitdir(dataDir, space.id), 'fsck', '--strict']);
  const after = await call(second, 'POST', content, { changes: [{ operation: 'insert_page', title: 'After the restart', document: { markdown: 'Still writable.\n' } }] });
  assert.is(after.status, 200, 'the repository lock a killed writer held is taken over');
  await second.stop('SIGTERM');
});

test('a change request row left without its branch (a kill before the two were made together): its space’s list answers, and it reads and writes from its base', async () => {
  const first = await start();
  const organization = (await call(first, 'GET', '/v1/orgs')).body.items[0].id;
  const space = (await call(first, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Lost branch', template: { id: 'blank' } })).body;
  const base = (await call(first, 'GET', `/v1/spaces/${space.id}/content`)).body.id;
  const lost = (await call(first, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Lost' })).body;
  const kept = (await call(first, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Kept' })).body;
  await first.stop('SIGTERM');
  // What a data folder of an older version holds after such a kill: the row, and no branch.
  const branches = execFileSync('git', ['-C', spaceGitdir(dataDir, space.id), 'for-each-ref', '--format=%(refname)', 'refs/heads/change-requests/'], { encoding: 'utf8' })
    .trim()
    .split('\n');
  assert.is(branches.length, 2);
  execFileSync('git', ['-C', spaceGitdir(dataDir, space.id), 'update-ref', '-d', branches.find((ref) => ref.includes(`/${lost.number}-`))!]);

  const second = await start();
  // A write comes first: it must not need a read to have mended the branch.
  const content = `/v1/spaces/${space.id}/change-requests/${lost.id}/content`;
  const write = await call(second, 'POST', content, { changes: [{ operation: 'insert_page', title: 'Written after', document: { markdown: 'Here.\n' } }] });
  assert.is(write.status, 200);
  const list = await call(second, 'GET', `/v1/spaces/${space.id}/change-requests`);
  assert.is(list.status, 200);
  assert.equal(list.body.items.map((item: { id: string }) => item.id).sort(), [lost.id, kept.id].sort());
  const mended = list.body.items.find((item: { id: string }) => item.id === lost.id).revision;
  assert.is((await call(second, 'GET', content)).body.id, mended);
  assert.ok(titles((await call(second, 'GET', `${content}/pages`)).body.pages).includes('Written after'));
  const parent = execFileSync('git', ['-C', spaceGitdir(dataDir, space.id), 'rev-parse', `${mended}^`], { encoding: 'utf8' }).trim();
  assert.is(parent, base, 'the lost branch was made again at its base, and the write landed on it');
  const merged = await call(second, 'POST', `/v1/spaces/${space.id}/change-requests/${lost.id}/merge`);
  assert.is(merged.status, 200, 'and it merges');
  assert.ok(titles((await call(second, 'GET', `/v1/spaces/${space.id}/content/pages`)).body.pages).includes('Written after'));
  execFileSync('git', ['-C', spaceGitdir(dataDir, space.id), 'fsck', '--strict']);
  await second.stop('SIGTERM');
});

test.run();
