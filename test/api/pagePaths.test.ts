import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { gitOut } from '../helpers/gitClient.js';

// Page paths as people name files: accents, emoji, `#` and `?`, the same title twice; pushed with
// the system git as a Git Sync user would, read back through the API.
const test = suite('page paths and titles beyond ASCII');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string };
let content: string;
withOrganization(test, (setup) => ({ t, fx } = setup));

const summary = `# Table of contents

* [Café & Crème 🚀](café.md)
* [Schrödinger's 猫](schrödinger/README.md)
  * [What? Why?](schrödinger/what?.md)
  * [C# basics](schrödinger/c%23.md)
* [Setup](guides/setup.md)
* [Setup](admin/setup.md)

## Référence

* [Glossary](reference/glossary.md)

## Référence
`;
const files: Record<string, string> = {
  'SUMMARY.md': summary,
  'café.md': '# Café & Crème 🚀\n\nDu café.\n',
  'schrödinger/README.md': "# Schrödinger's 猫\n\nBoth.\n",
  'schrödinger/what?.md': '# What? Why?\n\nQuestions.\n',
  'schrödinger/c#.md': '# C# basics\n\nSharp.\n',
  'guides/setup.md': '# Setup\n\nFor users.\n',
  'admin/setup.md': '# Setup\n\nFor admins.\n',
  'reference/glossary.md': '# Glossary\n\nWords.\n',
};

test.before(async () => {
  space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Ünïcödé 文档 🚀' } })).body;
  content = `/v1/spaces/${space.id}/content`;
  const clone = mkdtempSync(path.join(tmpdir(), 'quire-paths-'));
  try {
    const git = (...args: string[]) => gitOut(clone, ...args);
    execFileSync('git', ['clone', '--quiet', spaceGitdir(t.dataDir, space.id), clone]);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
      writeFileSync(path.join(clone, file), text);
    }
    git('add', '-A');
    git('commit', '--quiet', '-m', 'Pages named as people name them');
    git('push', '--quiet', 'origin', 'HEAD:main');
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});

type Page = { id: string; title: string; path: string; kind: string; pages?: Page[] };
const flatten = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
const byPath = (pagePath: string) => t.call('GET', `${content}/path/${pagePath}`, { token: fx.reader.token });

test('a non-ASCII title survives the round trip, on the space and on its pages', async () => {
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.title, 'Ünïcödé 文档 🚀');
  const pages = flatten((await t.call('GET', `${content}/pages`, { token: fx.reader.token })).body.pages);
  const cafe = pages.find((page) => page.path === 'café')!;
  assert.is(cafe?.title, 'Café & Crème 🚀');
  assert.is((await t.call('GET', `${content}/page/${cafe.id}`, { token: fx.reader.token })).body.title, 'Café & Crème 🚀');
  assert.is(pages.find((page) => page.path === 'schrödinger')?.title, "Schrödinger's 猫");
});

test('paths with accents, percent-encoded or not, find their page; a slash may come as %2F', async () => {
  assert.is((await byPath(encodeURIComponent('café'))).body.title, 'Café & Crème 🚀');
  assert.is((await byPath('caf%C3%A9')).body.title, 'Café & Crème 🚀');
  assert.is((await byPath(`${encodeURIComponent('schrödinger')}/${encodeURIComponent('what?')}`)).body.title, 'What? Why?');
  assert.is((await byPath(encodeURIComponent('schrödinger/what?'))).body.title, 'What? Why?', 'the whole path encoded, / as %2F');
  assertErrorIs(await byPath(encodeURIComponent('cafe')), 404, /Page at path "cafe" not found in revision [0-9a-f]{40}/);
});

test('`?` and `#` in a file name are part of the page path, encoded in the request', async () => {
  const pages = flatten((await t.call('GET', `${content}/pages`, { token: fx.reader.token })).body.pages);
  assert.equal(
    pages.filter((page) => page.path.startsWith('schrödinger/')).map((page) => [page.path, page.title]),
    [
      ['schrödinger/what?', 'What? Why?'],
      ['schrödinger/c#', 'C# basics'],
    ],
  );
  assert.is((await byPath(`${encodeURIComponent('schrödinger')}/what%3F`)).body.title, 'What? Why?');
  assert.is((await byPath(`${encodeURIComponent('schrödinger')}/c%23`)).body.title, 'C# basics');
  assert.is((await byPath(encodeURIComponent('schrödinger/c#'))).body.title, 'C# basics');
});

test('the same title twice: each page keeps its own id and path; two groups of one title are two groups', async () => {
  const pages = flatten((await t.call('GET', `${content}/pages`, { token: fx.reader.token })).body.pages);
  const setups = pages.filter((page) => page.title === 'Setup');
  assert.equal(
    setups.map((page) => page.path),
    ['guides/setup', 'admin/setup'],
  );
  assert.is(new Set(setups.map((page) => page.id)).size, 2, 'distinct ids');
  assert.is((await byPath('guides/setup')).body.id, setups[0]!.id);
  assert.is((await byPath('admin/setup')).body.id, setups[1]!.id);
  const groups = pages.filter((page) => page.kind === 'group');
  assert.equal(
    groups.map((group) => group.title),
    ['Référence', 'Référence'],
  );
  assert.is(new Set(groups.map((group) => group.id)).size, 2, 'distinct ids');
  assert.is(new Set(pages.map((page) => page.id)).size, pages.length, 'every page id is unique in the revision');
});

test.run();
