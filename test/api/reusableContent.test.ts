import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import { ok } from '../helpers/gitClient.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('reusable content: .gitbook/includes files, included by pages, served and inlined');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

const work = mkdtempSync(path.join(tmpdir(), 'quire-includes-'));
test.after(() => rmSync(work, { recursive: true, force: true }));

type Node = { type?: string; data?: { ref?: Record<string, unknown> }; nodes?: Node[]; leaves?: Array<{ text: string }> };
const textOf = (nodes: Node[]): string => nodes.map((node) => (node.leaves ?? []).map((leaf) => leaf.text).join('') + textOf(node.nodes ?? [])).join('');
const refsOf = (nodes: Node[]): Array<Record<string, unknown>> => nodes.flatMap((node) => [...(node.data?.ref ? [node.data.ref] : []), ...refsOf(node.nodes ?? [])]);

/** A space from the getting-started template whose quick start includes a support notice, pushed through git by an admin. */
async function spaceWithInclude() {
  const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
  const clone = path.join(mkdtempSync(path.join(work, 'clone-')), 'work');
  await ok(work, 'clone', '--quiet', `${t.url.replace('://', `://admin:${fx.admin.token}@`)}/git/${created.body.id}.git`, clone);
  mkdirSync(path.join(clone, '.gitbook/includes'), { recursive: true });
  writeFileSync(path.join(clone, '.gitbook/includes/support.md'), '---\ntitle: Support notice\n---\nStuck? Read the [FAQ](../../faq.md) or write to us.\n');
  const frontmatter = /^---\n[\s\S]*?\n---\n/.exec(readFileSync(path.join(clone, 'quick-start.md'), 'utf8'))![0];
  writeFileSync(path.join(clone, 'quick-start.md'), `${frontmatter}\n# Quick start\n\nInstall it.\n\n{% include "../.gitbook/includes/support.md" %}\n\nThen run it.\n`);
  await ok(clone, 'add', '-A');
  await ok(clone, 'commit', '-qm', 'Support notice');
  await ok(clone, 'push', '--quiet', 'origin', 'HEAD:main');
  const revision = (await t.call('GET', `/v1/spaces/${created.body.id}`, { token: fx.reader.token })).body.revision as string;
  const pages = (await t.call('GET', `/v1/spaces/${created.body.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; path: string }>;
  return { id: created.body.id as string, revision, clone, quickStart: pages.find((page) => page.path === 'quick-start')!.id, faq: pages.find((page) => page.path === 'faq')!.id };
}

test('the revision lists its reusable contents; each is served by id, with its Document, links resolved from its own file', async () => {
  const space = await spaceWithInclude();
  const content = await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.reader.token });
  assert.is(content.status, 200);
  assert.is(content.body.reusableContents.length, 1);
  const listed = content.body.reusableContents[0];
  assert.equal([listed.title, listed.git.path], ['Support notice', '.gitbook/includes/support.md']);
  for (const path of [`/v1/spaces/${space.id}/content/reusable-contents/${listed.id}`, `/v1/spaces/${space.id}/revisions/${space.revision}/reusable-contents/${listed.id}`]) {
    const one = await t.call('GET', path, { token: fx.reader.token });
    assert.equal([one.status, one.body], [200, listed], path);
  }
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/content/reusable-contents/nothing`, { token: fx.reader.token })).status, 404);
  assert.is(
    content.body.pages.some((page: { path: string }) => page.path.includes('includes')),
    false,
    'an include is no page',
  );

  const document = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/reusable-contents/${listed.id}/document`, { token: fx.reader.token });
  assert.is(document.status, 200, JSON.stringify(document.body));
  assert.match(textOf(document.body.nodes), 'Stuck? Read the FAQ or write to us.');
  assert.equal(refsOf(document.body.nodes), [{ kind: 'page', page: space.faq }], 'its link resolved from .gitbook/includes/');
  const byId = await t.call('GET', `/v1/spaces/${space.id}/documents/${listed.document}`, { token: fx.reader.token });
  assert.equal([byId.status, byId.body], [200, document.body], 'its Document by the id the reusable content names');
});

test('a page includes it as a reusable-content block; dereferenced, the block is the content itself', async () => {
  const space = await spaceWithInclude();
  const pagePath = `/v1/spaces/${space.id}/revisions/${space.revision}/page/${space.quickStart}/document`;
  const id = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.reader.token })).body.reusableContents[0].id as string;
  const plain = await t.call('GET', pagePath, { token: fx.reader.token });
  assert.is(plain.status, 200, JSON.stringify(plain.body));
  const block = (plain.body.nodes as Node[]).find((node) => node.type === 'reusable-content');
  assert.equal(block?.data?.ref, { kind: 'reusable-content', reusableContent: id });
  assert.not.match(textOf(plain.body.nodes), 'Stuck?');

  for (const value of ['reusable-contents', 'true']) {
    const inlined = await t.call('GET', `${pagePath}?dereferenced=${value}`, { token: fx.reader.token });
    assert.is(inlined.status, 200, JSON.stringify(inlined.body));
    assert.is(
      (inlined.body.nodes as Node[]).some((node) => node.type === 'reusable-content'),
      false,
    );
    assert.match(textOf(inlined.body.nodes), /Install it\.Stuck\? Read the FAQ or write to us\.Then run it\./);
    assert.equal(refsOf(inlined.body.nodes), [{ kind: 'page', page: space.faq }], 'the inlined link still leads to the FAQ');
  }
  const markdown = await t.call('GET', `/v1/spaces/${space.id}/content/page/${space.quickStart}?format=markdown`, { token: fx.reader.token });
  assert.match(markdown.body.markdown, '{% include "../.gitbook/includes/support.md" %}', 'markdown keeps the include as written');
});

test('a Document written through a change request includes a reusable content by id: stored as the include of its file', async () => {
  const space = await spaceWithInclude();
  const id = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.reader.token })).body.reusableContents[0].id as string;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Reuse' } })).body;
  const faqDocument = {
    object: 'document',
    data: {},
    nodes: [
      { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Questions, answered.', marks: [] }] }] },
      { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: id } } },
    ],
  };
  const written = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: space.faq, document: { document: faqDocument } }] },
  });
  assert.is(written.status, 200, JSON.stringify(written.body));
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
  const markdown = await t.call('GET', `${base}/page/${space.faq}?format=markdown`, { token: fx.reader.token });
  assert.match(markdown.body.markdown, '{% include ".gitbook/includes/support.md" %}');
  const inRequest = await t.call('GET', `${base}/reusable-contents/${id}`, { token: fx.reader.token });
  assert.equal([inRequest.status, inRequest.body.title], [200, 'Support notice']);
  const page = await t.call('GET', `${base}/page/${space.faq}?format=document`, { token: fx.reader.token });
  assert.equal((page.body.document.nodes as Node[]).find((node) => node.type === 'reusable-content')?.data?.ref, { kind: 'reusable-content', reusableContent: id });
});

test('format.markdown.refs=stable names pages, files and reusable contents by id; written back, they are relative paths again', async () => {
  const space = await spaceWithInclude();
  const content = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.reader.token })).body;
  const include = content.reusableContents[0].id as string;
  const readme = content.pages.find((page: { path: string }) => page.path === '').id as string;
  const logo = content.files[0].id as string;
  const stable = await t.call('GET', `/v1/spaces/${space.id}/content/page/${readme}?format=markdown&format.markdown.refs=stable`, { token: fx.reader.token });
  assert.is(stable.status, 200, JSON.stringify(stable.body));
  assert.is(stable.body.markdown, `Welcome! Start with the [quick start](/pages/${space.quickStart}), or read the [FAQ](/pages/${space.faq}).\n\n![Logo](/files/${logo})\n`);
  const quickStart = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/page/${space.quickStart}?format=markdown&format.markdown.refs=stable`, { token: fx.reader.token });
  assert.match(quickStart.body.markdown, `{% include "/reusable-contents/${include}" %}`);
  const relative = await t.call('GET', `/v1/spaces/${space.id}/content/page/${readme}?format=markdown`, { token: fx.reader.token });
  assert.match(relative.body.markdown, '[quick start](quick-start.md)', 'relative, as stored, by default');

  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Round trip' } })).body;
  const markdown = `${stable.body.markdown}\n\`\`\`md\n[not a link](faq.md)\n\`\`\`\n`;
  const written = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: readme, document: { markdown } }] },
  });
  assert.is(written.status, 200, JSON.stringify(written.body));
  const stored = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/${readme}?format=markdown`, { token: fx.reader.token });
  assert.match(stored.body.markdown, 'Welcome! Start with the [quick start](quick-start.md), or read the [FAQ](faq.md).\n\n![Logo](.gitbook/assets/logo.png)');
  const again = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/${readme}?format=markdown&format.markdown.refs=stable`, { token: fx.reader.token });
  assert.match(again.body.markdown, '```md\n[not a link](faq.md)\n```', 'a link shown in code is code');
});

test("a revision's changes are measured against the revision before it; the first one's against nothing", async () => {
  const space = await spaceWithInclude();
  const changes = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/changes`, { token: fx.reader.token });
  assert.is(changes.status, 200, JSON.stringify(changes.body));
  assert.equal(
    changes.body.changes.map((change: { type: string; page?: { id: string } }) => [change.type, change.page?.id]),
    [['page_edited', space.quickStart]],
  );
  const history = (await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}`, { token: fx.reader.token })).body.parents as string[];
  const first = await t.call('GET', `/v1/spaces/${space.id}/revisions/${history[0]}/changes?limit=2`, { token: fx.reader.token });
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.is(first.body.changes.length, 2);
  assert.ok(first.body.more > 0, 'the rest is counted');
  assert.ok(first.body.changes.every((change: { type: string }) => change.type === 'page_created' || change.type === 'file_created'));
});

test.run();
