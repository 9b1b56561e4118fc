import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges, type Change } from '../../engine/commitChanges.js';
import { renderPageFile } from '../../engine/layout/pageFile.js';
import { parseSummary, renderSummary } from '../../engine/layout/summary.js';
import { allPages } from '../../engine/allPages.js';
import { readRevision, type RevisionPage } from '../../engine/readRevision.js';
import { pageSections, searchablePages } from '../../engine/internal/searchSections.js';
import { createRepository, primaryBranch, type Repository } from '../../engine/repository.js';

const test = suite('engine: readRevision (Git Sync layout)');
const author = { name: 'Ada', email: 'ada@example.com' };
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-layout-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

const outline = (pages: RevisionPage[]): unknown[] => pages.map((page) => [page.kind, page.title, page.path, ...(page.pages.length ? [outline(page.pages)] : [])]);

async function commit(repo: Repository, base: string | null, changes: Change[]) {
  return (await commitChanges({ repo, branch: primaryBranch, base, changes, message: 'test', author })).commit;
}

const summary = `# Table of contents

* [Introduction](README.md)
* [Getting started](getting-started.md)
  * [Install](getting-started/install.md)

## Guides <!-- id: guidesGroup -->

* [Writing](guides/writing.md)
* [Website](https://example.com) <!-- id: websiteLink -->
`;

test('reads SUMMARY.md: order, nesting, groups, links, and the ids kept in the repository', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const head = await commit(repo, null, [
    { path: 'SUMMARY.md', content: summary },
    { path: 'README.md', content: renderPageFile({ meta: { pageId: 'introPage', description: 'Start here' }, body: '# Introduction\n\nHello.\n' }) },
    { path: 'getting-started.md', content: '# Getting started\n' },
    { path: 'getting-started/install.md', content: renderPageFile({ meta: { pageId: 'installPage', icon: 'download' }, body: '# Install\n' }) },
    { path: 'guides/writing.md', content: '# Writing\n' },
    { path: '.gitbook/assets/logo.png', content: new Uint8Array([1, 2, 3]) },
  ]);
  const revision = await readRevision(repo, head);
  assert.equal(outline(revision.pages), [
    ['document', 'Introduction', ''],
    ['document', 'Getting started', 'getting-started', [['document', 'Install', 'getting-started/install']]],
    [
      'group',
      'Guides',
      'guides',
      [
        ['document', 'Writing', 'guides/writing'],
        ['link', 'Website', 'website'],
      ],
    ],
  ]);
  const [intro, started, guides] = revision.pages;
  assert.is(intro!.id, 'introPage');
  assert.equal(intro!.meta, { description: 'Start here' });
  assert.is(started!.pages[0]!.id, 'installPage');
  assert.is(guides!.id, 'guidesGroup');
  assert.is(guides!.pages[1]!.id, 'websiteLink');
  assert.is(guides!.pages[1]!.href, 'https://example.com');
  assert.match(started!.id, /^[A-Za-z0-9]{20}$/, 'a page without an id gets a derived one');
  assert.equal(
    revision.files.map((file) => file.name),
    ['logo.png'],
  );
  assert.is(await readRevision(repo, head), revision, 'a commit is read once, then served from the cache');
});

test('page ids survive a rename and a move; derived ids are the same for every reader', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const first = await commit(repo, null, [
    { path: 'SUMMARY.md', content: summary },
    { path: 'README.md', content: '# Introduction\n' },
    { path: 'getting-started.md', content: '# Getting started\n' },
    { path: 'getting-started/install.md', content: renderPageFile({ meta: { pageId: 'installPage' }, body: '# Install\n' }) },
    { path: 'guides/writing.md', content: '# Writing\n' },
  ]);
  const before = await readRevision(repo, first);
  const moved = summary.replace('  * [Install](getting-started/install.md)\n', '').replace('* [Writing](guides/writing.md)', '* [Writing](guides/writing.md)\n* [Setting up](guides/setup.md)');
  const second = await commit(repo, first, [
    { path: 'SUMMARY.md', content: moved },
    { path: 'getting-started/install.md', remove: true },
    { path: 'guides/setup.md', content: renderPageFile({ meta: { pageId: 'installPage' }, body: '# Setting up\n' }) },
  ]);
  const after = await readRevision(repo, second);
  const setup = after.pages[2]!.pages.find((page) => page.title === 'Setting up');
  assert.is(setup?.id, 'installPage');
  assert.is(setup?.path, 'guides/setup');
  assert.is(after.pages[0]!.id, before.pages[0]!.id, 'the derived id of an unchanged page is stable');
  const third = await commit(repo, second, [{ path: '.gitbook/assets/diagram.png', content: new Uint8Array([9, 9, 9]) }]);
  const fourth = await commit(repo, third, [
    { path: '.gitbook/assets/diagram.png', remove: true },
    { path: '.gitbook/assets/moved/renamed.png', content: new Uint8Array([9, 9, 9]) },
  ]);
  const fileBefore = (await readRevision(repo, third)).files[0]!;
  const fileAfter = (await readRevision(repo, fourth)).files[0]!;
  assert.is(fileAfter.name, 'moved/renamed.png');
  assert.is(fileAfter.id, fileBefore.id, 'a file keeps its id through a rename and a move');
  assert.equal(parseSummary(renderSummary(parseSummary(summary))), parseSummary(summary), 'SUMMARY.md survives a round trip');
});

test('SUMMARY.md as people write it: dashes, tabs, escaped brackets, spaces in paths, code fences', () => {
  const groups = parseSummary(`# Summary

- [Intro \\[beta\\]](README.md)
	- [Child page](docs/child%20page.md "A title")
		- [Grandchild](<docs/deep/grand child.md>)
- [Second](second.md) <!-- id: secondLink -->

\`\`\`
* [Not an entry](nowhere.md)
\`\`\`

## Reference <a href="#reference" id="reference"></a>

* [API](api.md)
`);
  assert.equal(groups, [
    {
      title: null,
      entries: [
        {
          title: 'Intro [beta]',
          target: 'README.md',
          children: [{ title: 'Child page', target: 'docs/child page.md', children: [{ title: 'Grandchild', target: 'docs/deep/grand child.md', children: [] }] }],
        },
        { title: 'Second', target: 'second.md', id: 'secondLink', children: [] },
      ],
    },
    { title: 'Reference', entries: [{ title: 'API', target: 'api.md', children: [] }] },
  ]);
});

test('a file listed twice, and two groups of one title, still give every page its own id', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const head = await commit(repo, null, [
    { path: 'SUMMARY.md', content: '* [One](a.md)\n* [Again](a.md)\n\n## Same\n\n* [B](b.md)\n\n## Same\n\n* [C](c.md)\n' },
    { path: 'a.md', content: '# A\n' },
    { path: 'b.md', content: '# B\n' },
    { path: 'c.md', content: '# C\n' },
  ]);
  const ids = allPages((await readRevision(repo, head)).pages).map((page) => page.id);
  assert.is(new Set(ids).size, ids.length);
});

// How fast these lines are read is bench material; here, that they are read as text. Each line
// is one that a backtracking pattern would take quadratic time over (seconds at this length).
test('headings and lines made to make regular expressions backtrack are read as text', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const run = 20_000;
  const markdown = `# a${' '.repeat(run)}b\n\n## x${' '.repeat(run)}y\n\n${'<'.repeat(run)}\n\n${'['.repeat(run)}\n\n${'](('.repeat(run)}\n\n${'a |'.repeat(run)}\n`;
  const head = await commit(repo, null, [{ path: 'README.md', content: markdown }]);
  const revision = await readRevision(repo, head);
  const [page] = await searchablePages(revision.pages);
  assert.is(page!.page.title, `a${' '.repeat(run)}b`);
  const section = pageSections(page!.page)[1]!;
  assert.is(section.title, `x${' '.repeat(run)}y`);
  assert.equal(
    section.body.split('\n\n').map((paragraph) => paragraph.length),
    [run, run, 3 * run, 2 * run - 1],
  );
});

test('a commit touching one page re-indexes that page only: the others keep their search entries', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const base = await commit(repo, null, [
    { path: 'SUMMARY.md', content: '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n  * [Step](guide/step.md)\n' },
    { path: 'README.md', content: '# Home\n\nWelcome.\n' },
    { path: 'guide.md', content: '# Guide\n\nRead this.\n' },
    { path: 'guide/step.md', content: '# Step\n\nDo that.\n' },
  ]);
  const before = await searchablePages((await readRevision(repo, base)).pages);
  const head = await commit(repo, base, [{ path: 'guide/step.md', content: '# Step\n\nDo that, then this.\n' }]);
  const after = await searchablePages((await readRevision(repo, head)).pages);
  assert.equal(
    after.map((entry) => [entry.page.title, entry.ancestors]),
    [
      ['Home', []],
      ['Guide', []],
      ['Step', ['Guide']],
    ],
  );
  assert.ok(after[0] === before[0], 'an unchanged page: the very same entry');
  assert.is(after[1]!.contentHash, before[1]!.contentHash, 'the changed page’s parent is rebuilt, its indexed content the same');
  assert.is.not(after[2]!.contentHash, before[2]!.contentHash);
  assert.is(pageSections(after[2]!.page)[0]!.body, 'Do that, then this.');
});

test('without SUMMARY.md, pages come from the files: README first, folders under their README', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const head = await commit(repo, null, [
    { path: 'README.md', content: '# Home\n' },
    { path: 'b.md', content: '# Bee\n' },
    { path: 'a.md', content: '# Ay\n' },
    { path: 'docs/README.md', content: '# Docs\n' },
    { path: 'docs/deep.md', content: '# Deep\n' },
  ]);
  assert.equal(outline((await readRevision(repo, head)).pages), [
    ['document', 'Home', ''],
    ['document', 'Ay', 'a'],
    ['document', 'Bee', 'b'],
    ['document', 'Docs', 'docs', [['document', 'Deep', 'docs/deep']]],
  ]);
});

test("a commit changing a few pages reuses its parent revision's other pages, and rebuilds the changed ones and their parents", async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const page = (pageId: string, body: string) => renderPageFile({ meta: { pageId }, body });
  const tree = (title: string) => `# Table of contents\n\n* [Home](README.md)\n* [${title}](guide.md)\n  * [Install](guide/install.md)\n* [Other](other.md)\n`;
  const first = await commit(repo, null, [
    { path: 'SUMMARY.md', content: tree('Guide') },
    { path: 'README.md', content: page('home', '# Home\n') },
    { path: 'guide.md', content: page('guide', '# Guide\n') },
    { path: 'guide/install.md', content: page('install', '# Install\n\nOld steps.\n') },
    { path: 'other.md', content: page('other', '# Other\n') },
  ]);
  const before = await readRevision(repo, first);
  const second = await commit(repo, first, [{ path: 'guide/install.md', content: page('install', '# Install\n\nNew steps.\n') }]);
  const after = await readRevision(repo, second);
  const [home, guide, other] = after.pages;
  assert.is(home, before.pages[0], 'an unchanged page is the same object');
  assert.is(other, before.pages[2]);
  assert.is.not(guide, before.pages[1], 'the parent of a changed page is built again');
  assert.ok(guide!.pages[0]!.markdown!.includes('New steps.'));
  assert.ok(before.pages[1]!.pages[0]!.markdown!.includes('Old steps.'), 'the parent revision is left as it was');
  // A title changed in SUMMARY.md for an unchanged file: that page is new, with the new title.
  const third = await commit(repo, second, [{ path: 'SUMMARY.md', content: tree('Handbook') }]);
  const renamed = await readRevision(repo, third);
  assert.is(renamed.pages[1]!.title, 'Handbook');
  assert.is(renamed.pages[1]!.pages[0], guide!.pages[0]);
  assert.equal(outline(renamed.pages), [
    ['document', 'Home', ''],
    ['document', 'Handbook', 'guide', [['document', 'Install', 'guide/install']]],
    ['document', 'Other', 'other'],
  ]);
});

test.run();
