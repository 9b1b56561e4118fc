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

test('SIGKILL during 200 concurrent batches: every batch answered 2xx is there after a restart, and git fsck is clean', async () => {
  const first = await start();
  const organization = (await call(first, 'GET', '/v1/orgs')).body.items[0].id;
  const space = (await call(first, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Crash', template: { id: 'blank' } })).body;
  const changeRequest = (await call(first, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Crash' })).body;
  const content = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;

  const answered: string[] = [];
  // Enough batches that the kill, sent once the first is answered, lands before the last: with 50,
  // all were once answered in the few milliseconds the kill took (seen in one run of five).
  const batches = Array.from({ length: 200 }, (_, index) =>
    call(first, 'POST', content, { changes: [{ operation: 'insert_page', title: `Batch ${index}`, document: { markdown: `Written by batch ${index}.\n` } }] }).then(
      (response) => {
        if (response.status === 200) answered.push(`Batch ${index}`);
      },
      () => undefined, // the connection died with the server: this batch may or may not have landed
    ),
  );
  // Kill it while the batches are under way: after the first one lands, before the last.
  await until('the first batch to be answered', () => answered.length > 0, 20_000, 5);
  await first.stop('SIGKILL');
  await Promise.all(batches);
  assert.ok(answered.length > 0 && answered.length < 200, `killed mid-way: ${answered.length} of 200 answered`);

  const second = await start();
  const pages = (await call(second, 'GET', `${content}/pages`)).body.pages as Page[];
  const present = new Set(titles(pages));
  for (const title of answered) assert.ok(present.has(title), `${title} was answered 200 and is there`);
  execFileSync('git', ['-C', spaceGitdir(dataDir, space.id), 'fsck', '--strict']);
  const after = await call(second, 'POST', content, { changes: [{ operation: 'insert_page', title: 'After the restart', document: { markdown: 'Still writable.\n' } }] });
  assert.is(after.status, 200, 'the repository lock a killed writer held is taken over');
  await second.stop('SIGTERM');
});

test.run();
