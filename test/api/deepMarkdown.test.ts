import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { gitOut } from '../helpers/gitClient.js';

/** Markdown nested past what a recursive converter survives: refused when written, a 422 (not a crash) when read. */
const test = suite('deeply nested markdown');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));

const limit = 'The markdown nests blocks or marks deeper than the limit of 64 levels';
const deep = {
  quotes: `${'> '.repeat(20_000)}deep`,
  lists: Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'),
  emphasis: `${'*'.repeat(30_000)}deep${'*'.repeat(30_000)}`,
  marks: `${'*a'.repeat(1_500)}${'a*'.repeat(1_500)}`,
  hints: `${'{% hint style="info" %}\n'.repeat(500)}deep\n${'{% endhint %}\n'.repeat(500)}`,
  // Brackets aren't links, but the parser's cost for each `]` grew with the text back to its `[`.
  brackets: `${'['.repeat(16_000)}x${']'.repeat(16_000)}`,
};
/** Refused before parsing, as the parser would take seconds: square brackets by the thousand in one paragraph. */
const flatBrackets = '[a] '.repeat(16_000);
const tooManyBrackets = 'The markdown holds more than 2000 square brackets in one paragraph, list item, heading or table row: split it';

test('a page written with nesting past 64 levels is refused, naming the limit; 62 quotes (text at level 64) are fine', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Deep' } })).body;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: {} })).body;
  const content = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
  for (const [name, markdown] of Object.entries(deep)) {
    const refused = await t.call('POST', content, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: name, document: { markdown } }] } });
    assertErrorIs(refused, 400, `changes[0] (insert_page): ${limit}`, name);
  }
  const fine = await t.call('POST', content, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Fine', document: { markdown: `${'> '.repeat(62)}fine` } }] } });
  assert.is(fine.status, 200);
  const comment = await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.admin.token, body: { body: { markdown: deep.quotes } } });
  assertErrorIs(comment, 400, `A comment: ${limit}`);
  const brackets = await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.admin.token, body: { body: { markdown: deep.brackets } } });
  assertErrorIs(brackets, 400, `A comment: ${limit}`);
  assertErrorIs(
    await t.call('POST', content, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Flat', document: { markdown: flatBrackets } }] } }),
    400,
    `changes[0] (insert_page): ${tooManyBrackets}`,
  );
  assertErrorIs(await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.admin.token, body: { body: { markdown: flatBrackets } } }), 400, `A comment: ${tooManyBrackets}`);
  // A long list of links is many runs of text, each with a few brackets: fine.
  const list = Array.from({ length: 3000 }, (_, i) => `- [Link ${i}](page-${i}.md)`).join('\n');
  assert.is((await t.call('POST', content, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Links', document: { markdown: list } }] } })).status, 200);
  // A table's rows are runs of their own: a thousand rows with bold cells hold 4,000 markers, fine.
  const table = `| a | b |\n|---|---|\n${Array.from({ length: 1000 }, (_, i) => `| **${i}** | [x](y.md) |`).join('\n')}`;
  assert.is((await t.call('POST', content, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Table', document: { markdown: table } }] } })).status, 200);
});

test('a page pushed through git nesting past the limit reads as markdown, and as a Document answers 422', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Pushed', template: { id: 'getting-started' } } })).body;
  const work = mkdtempSync(path.join(tmpdir(), 'quire-deep-'));
  try {
    const git = (...args: string[]) => gitOut(work, ...args);
    execFileSync('git', ['clone', '-q', spaceGitdir(t.dataDir, space.id), work]);
    writeFileSync(path.join(work, 'deep.md'), `# Deep\n\n${deep.quotes}\n`);
    writeFileSync(path.join(work, 'SUMMARY.md'), `${readFileSync(path.join(work, 'SUMMARY.md'), 'utf8').trimEnd()}\n* [Deep](deep.md)\n`);
    git('add', '-A');
    git('commit', '-q', '-m', 'A deep page');
    git('push', '-q', 'origin', 'HEAD:main');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; title: string }>;
  const page = pages.find((item) => item.title === 'Deep')!;
  const markdown = await t.call('GET', `/v1/spaces/${space.id}/content/page/${page.id}?format=markdown`, { token: fx.reader.token });
  assert.is(markdown.status, 200);
  assert.ok(markdown.body.markdown.includes('> > > deep') || markdown.body.markdown.includes('deep'));
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/content/page/${page.id}?format=document`, { token: fx.reader.token }), 422, limit);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/content/page/${pages[0]!.id}?format=document`, { token: fx.reader.token })).status, 200, 'the other pages read as ever');
});

test.run();
