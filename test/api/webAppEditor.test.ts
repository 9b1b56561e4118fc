import { suite } from 'uvu';
import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { roomLimits, roomTiming } from '../../domain/collaboration/index.js';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser as Browser, signedInBrowser } from '../helpers/formBrowser.js';
import { gitValue } from '../helpers/gitClient.js';
import { givePasswords } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * Writing in a change request from the browser (issue 53), over HTTP: in markdown, each save one
 * commit on its branch with the markdown as written; a save over a branch that moved meanwhile
 * merged line by line, or, where both changed the same lines, handed back marked and nothing
 * written. The block editor's saves (its script's requests, sent here by hand): unchanged blocks
 * kept byte for byte, a changed block rewritten alone, bad blocks refused in the API's error shape.
 */
const test = suite('the web app: writing in a change request');
let t: TestServer;
let fx: OrganizationFixture;
let spaceId: string;
const password = 'correct horse battery staple';

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    spaceId = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Handbook', template: { id: 'getting-started' } } })).body.id;
    await givePasswords(t.dataDir, [fx.editor, fx.reader], password);
  }),
);
test.after(async () => t?.close());

async function openChangeRequest(subject: string) {
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject } })).body;
  const base = `/v1/spaces/${spaceId}/change-requests/${created.id}`;
  const faq = (await t.call('GET', `${base}/content/path/faq`, { token: fx.editor.token })).body;
  return { created, base, path: new URL(created.urls.app).pathname, faqId: faq.id as string };
}

const branchOf = async (base: string) => (await t.call('GET', base, { token: fx.editor.token })).body.revision as string;
const markdownOf = async (base: string) => (await t.call('GET', `${base}/content/path/faq?format=markdown`, { token: fx.editor.token })).body.markdown as string;

test('a page edited in markdown: one commit on the branch, the file as written', async () => {
  const { path, base, faqId, created } = await openChangeRequest('Edit the FAQ');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const page = await editor.get(path);
  assert.match(page.html, `<a href="${path}/pages">Edit pages</a>`);
  const pages = await editor.get(`${path}/pages`);
  assert.match(pages.html, `<a href="${path}/p/${faqId}/edit" aria-label="Edit FAQ">FAQ</a>`);
  assert.match((await editor.get(`${path}/p/${faqId}/edit`)).html, `<a href="${path}/p/${faqId}/markdown">Edit as markdown</a>`);
  const form = await editor.get(`${path}/p/${faqId}/markdown`);
  assert.match(form.html, '<label for="page-markdown">Markdown</label>');
  assert.match(form.html, /<textarea id="page-markdown" name="markdown" rows="24" spellcheck>## Where do I start\?/, 'the text without its title heading: the title has its own field');
  const before = await branchOf(base);
  const text = '## Where do I start?\n\nWith the [introduction](README.md).\n\n* one\n* two\n';
  const saved = await editor.post(`${path}/p/${faqId}/markdown`, { csrf: Browser.field(form.html, 'csrf'), base: Browser.field(form.html, 'base'), title: 'Questions', markdown: text });
  assert.is(saved.status, 303, saved.html.slice(0, 400));
  const after = await branchOf(base);
  assert.is.not(after, before);
  const gitdir = spaceGitdir(t.dataDir, spaceId);
  assert.is(gitValue(gitdir, 'rev-parse', `${after}^`), before, 'one commit on the branch');
  const changed = gitValue(gitdir, 'diff', '--name-only', before, after).trim().split('\n');
  assert.equal(changed.sort(), ['SUMMARY.md', 'faq.md'], 'the page’s file, and the summary for its new title');
  const file = 'faq.md';
  const written = gitValue(gitdir, 'show', `${after}:${file}`);
  // Git Sync's layout: frontmatter, the title as the first heading, then the markdown as written (gitValue trims the last newline).
  assert.is(written, `---\npageId: ${faqId}\n---\n\n# Questions\n\n${text.trimEnd()}`);
  assert.is((await t.call('GET', `${base}/content/page/${faqId}`, { token: fx.editor.token })).body.title, 'Questions');
  assert.match(created.urls.app, new RegExp(path));

  const reader = await signedInBrowser(t.url, fx.reader.email, password);
  assert.is((await reader.get(`${path}/p/${faqId}/edit`)).status, 403, 'a reader edits nothing');
  assert.is((await reader.get(`${path}/p/${faqId}/markdown`)).status, 403);
});

test('a save over a branch that moved meanwhile: different lines merged, the same lines handed back marked', async () => {
  const { path, base, faqId } = await openChangeRequest('Two writers');
  const start = '## Where do I start?\n\nFirst line.\n\nMiddle line.\n\nLast line.\n';
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: start } }] } })).status, 200);
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const form = await editor.get(`${path}/p/${faqId}/markdown`);
  const opened = { csrf: Browser.field(form.html, 'csrf'), base: Browser.field(form.html, 'base'), title: 'FAQ' };

  // Someone else (a push, the API) changes the last line while the first is being rewritten here.
  const elsewhere = start.replace('Last line.', 'Last line, changed elsewhere.');
  assert.is((await t.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: elsewhere } }] } })).status, 200);
  const merged = await editor.post(`${path}/p/${faqId}/markdown`, { ...opened, markdown: start.replace('First line.', 'First line, changed here.') });
  assert.is(merged.status, 303, merged.html.slice(0, 400));
  const both = await markdownOf(base);
  assert.match(both, 'First line, changed here.');
  assert.match(both, 'Last line, changed elsewhere.');

  // Both change the middle line: nothing written, both versions handed back marked.
  const again = await editor.get(`${path}/p/${faqId}/markdown`);
  const reopened = { csrf: Browser.field(again.html, 'csrf'), base: Browser.field(again.html, 'base'), title: 'FAQ' };
  const theirs = both.replace('Middle line.', 'Middle line, theirs.');
  assert.is((await t.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: theirs } }] } })).status, 200);
  const head = await branchOf(base);
  const conflict = await editor.post(`${path}/p/${faqId}/markdown`, { ...reopened, markdown: both.replace('Middle line.', 'Middle line, mine.') });
  assert.is(conflict.status, 409);
  assert.match(conflict.html, 'The page changed meanwhile');
  assert.match(conflict.html, /&#x3C;&#x3C;&#x3C;&#x3C;&#x3C;&#x3C;&#x3C; yours\nMiddle line, mine\.\n=======\nMiddle line, theirs\.\n>>>>>>> the change request now/);
  assert.is(await branchOf(base), head, 'nothing written');
  // The writer keeps both lines and saves from the head the conflict was shown against.
  const resolved = theirs.replace('Middle line, theirs.', 'Middle line, mine.\n\nMiddle line, theirs.');
  const done = await editor.post(`${path}/p/${faqId}/markdown`, { ...reopened, base: Browser.field(conflict.html, 'base'), markdown: resolved });
  assert.is(done.status, 303);
  assert.match(await markdownOf(base), /Middle line, mine\.\n\nMiddle line, theirs\./);
});

/** The block editor's page: its CSRF token, and the blocks and base its script starts from. */
async function openBlockEditor(editor: Browser, path: string, pageId: string) {
  const page = await editor.get(`${path}/p/${pageId}/edit`);
  assert.is(page.status, 200, page.html.slice(0, 300));
  const json = /<script type="application\/json" id="editor-blocks">([^<]*)<\/script>/.exec(page.html)?.[1];
  assert.ok(json, 'the page carries its blocks');
  const opened = JSON.parse(json!) as { base: string; blocks: Array<{ key: string; node?: Record<string, unknown>; source?: string }> };
  return { csrf: Browser.field(page.html, 'csrf'), ...opened, script: /<script src="(\/app\/assets\/editor-[^"]+\.js)" defer nonce="[^"]+"><\/script>/.exec(page.html)?.[1] };
}

const saveBlocks = (editor: Browser, path: string, pageId: string, form: Record<string, string>) => editor.post(`${path}/p/${pageId}/blocks`, form, { accept: 'application/json' });

test('the block editor: its script is served gzipped; an unchanged save writes nothing; a typed word is one commit on that line', async () => {
  const { path, base, faqId } = await openChangeRequest('In blocks');
  const start = '## Where do I start?\n\nFirst line.\n\n* one\n* two\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n';
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: start } }] } })).status, 200);
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const opened = await openBlockEditor(editor, path, faqId);
  assert.is(opened.base, await branchOf(base));
  assert.equal(
    opened.blocks.map((block) => (block.node ? block.node.type : 'source')),
    ['heading-2', 'paragraph', 'list-unordered', 'hint'],
  );
  const script = await fetch(`${t.url}${opened.script}`, { headers: { 'accept-encoding': 'gzip' } });
  assert.is(script.status, 200);
  assert.is(script.headers.get('content-encoding'), 'gzip');
  assert.ok(Number(script.headers.get('content-length')) < 250 * 1024, `${script.headers.get('content-length')} bytes gzipped`);

  const keepAll = opened.blocks.map((block) => ({ keep: block.key }));
  const unchanged = await saveBlocks(editor, path, faqId, { csrf: opened.csrf, base: opened.base, title: 'FAQ', blocks: JSON.stringify(keepAll) });
  assert.is(unchanged.status, 200, unchanged.html);
  assert.is(JSON.parse(unchanged.html).head, opened.base, 'no commit for a save of nothing');
  assert.is(await branchOf(base), opened.base);

  // The list's second item gets a word, as typing it in the editor would.
  const list = structuredClone(opened.blocks[2]!.node!) as { nodes: Array<{ nodes: Array<{ nodes: Array<{ leaves: Array<{ text: string }> }> }> }> };
  list.nodes[1]!.nodes[0]!.nodes[0]!.leaves[0]!.text = 'two and three';
  const blocks = [...keepAll.slice(0, 2), { node: list, was: opened.blocks[2]!.key }, keepAll[3]];
  const saved = await saveBlocks(editor, path, faqId, { csrf: opened.csrf, base: opened.base, title: 'FAQ', blocks: JSON.stringify(blocks) });
  assert.is(saved.status, 200, saved.html);
  const answer = JSON.parse(saved.html) as { result: string; head: string; merged: boolean; keys: string[] };
  assert.equal([answer.result, answer.merged], ['saved', false]);
  const keys = opened.blocks.map((block) => block.key);
  assert.equal([answer.keys[0], answer.keys[1], answer.keys[3]], [keys[0], keys[1], keys[3]], 'the kept blocks keep their keys');
  assert.ok(answer.keys[2] && answer.keys[2] !== keys[2], 'the changed block has the key of what it is now');
  assert.is(answer.head, await branchOf(base));
  const gitdir = spaceGitdir(t.dataDir, spaceId);
  assert.is(gitValue(gitdir, 'rev-parse', `${answer.head}^`), opened.base, 'one commit');
  const diff = gitValue(gitdir, 'diff', '--unified=0', opened.base, answer.head, '--', 'faq.md');
  assert.equal(
    diff.split('\n').filter((line) => /^[-+][^-+]/.test(line)),
    ['-* two', '+* two and three'],
    diff,
  );
});

test('the block editor’s save and upload: bad blocks, an unknown block, a missing token, a file that is no image or too big refused in the API’s error shape, nothing written', async () => {
  const { path, base, faqId } = await openChangeRequest('Refusals');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const opened = await openBlockEditor(editor, path, faqId);
  const form = { csrf: opened.csrf, base: opened.base, title: 'FAQ' };
  for (const [blocks, message] of [
    ['not json', /"blocks" is the page’s blocks as JSON/],
    ['{"keep":"x"}', /"blocks" is a list/],
    ['[{"node":{"object":"text"}}]', /"blocks\[0\]" is/],
    ['[{"keep":"no-such-block"}]', /No block "no-such-block".*reload/],
  ] as const) {
    const refused = await saveBlocks(editor, path, faqId, { ...form, blocks });
    assert.is(refused.status, 400, `${blocks}: ${refused.html}`);
    const body = JSON.parse(refused.html) as { error: { code: number; message: string } };
    assert.is(body.error.code, 400);
    assert.match(body.error.message, message);
  }
  const forged = await saveBlocks(editor, path, faqId, { ...form, csrf: '', blocks: '[]' });
  assert.is(forged.status, 403);
  const upload = (file: Record<string, string>) => editor.post(`${path}/p/${faqId}/files`, { csrf: opened.csrf, name: 'x.png', ...file }, { accept: 'application/json' });
  for (const [file, message] of [
    [{ contentType: 'text/html', base64: 'PGI+' }, /"contentType" is an image’s type/],
    [{ contentType: 'image/png', base64: 'not base64!' }, /"base64" is not base64/],
    [{ contentType: 'image/png', base64: Buffer.alloc(1024 * 1024 + 1).toString('base64') }, /the limit is 1048576/],
  ] as const) {
    const refused = await upload(file);
    assert.is(refused.status, 400, refused.html.slice(0, 200));
    assert.match((JSON.parse(refused.html) as { error: { message: string } }).error.message, message);
  }
  assert.is(await branchOf(base), opened.base, 'nothing written');
});

test('the block editor’s save over a branch that moved: other blocks merged in and handed back; the same block a conflict', async () => {
  const { path, base, faqId } = await openChangeRequest('Moved under the editor');
  const start = 'First line.\n\nMiddle line.\n\nLast line.\n';
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: start } }] } })).status, 200);
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const opened = await openBlockEditor(editor, path, faqId);
  const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
  const [first, middle, last] = opened.blocks.map((block) => block.key);
  // A push (here the API) changes the last line while the first is rewritten in the editor.
  assert.is(
    (
      await t.call('POST', `${base}/content`, {
        token: fx.admin.token,
        body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: start.replace('Last line.', 'Last line, pushed.') } }] },
      })
    ).status,
    200,
  );
  const mine = [{ node: paragraph('First line, typed.'), was: first }, { keep: middle }, { keep: last }];
  const merged = await saveBlocks(editor, path, faqId, { csrf: opened.csrf, base: opened.base, title: 'FAQ', blocks: JSON.stringify(mine) });
  assert.is(merged.status, 200, merged.html);
  const answer = JSON.parse(merged.html) as { merged: boolean; head: string; blocks: Array<{ node: { nodes: Array<{ leaves: Array<{ text: string }> }> } }> };
  assert.is(answer.merged, true);
  assert.equal(
    answer.blocks.map((block) => block.node.nodes[0]!.leaves[0]!.text),
    ['First line, typed.', 'Middle line.', 'Last line, pushed.'],
    'the editor gets both writers’ blocks',
  );

  // Both change the middle line: nothing written; what the editor wrote comes back for the markdown editor.
  assert.is(
    (
      await t.call('POST', `${base}/content`, {
        token: fx.admin.token,
        body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: (await markdownOf(base)).replace('Middle line.', 'Middle line, theirs.') } }] },
      })
    ).status,
    200,
  );
  const head = await branchOf(base);
  const reopened = answer.blocks as unknown as Array<{ key: string }>;
  const clash = [{ keep: reopened[0]!.key }, { node: paragraph('Middle line, mine.'), was: reopened[1]!.key }, { keep: reopened[2]!.key }];
  const conflict = await saveBlocks(editor, path, faqId, { csrf: opened.csrf, base: answer.head, title: 'FAQ', blocks: JSON.stringify(clash) });
  assert.is(conflict.status, 409, conflict.html);
  const refused = JSON.parse(conflict.html) as { result: string; head: string; written: string };
  assert.equal([refused.result, refused.head], ['conflict', head]);
  assert.is(refused.written, 'First line, typed.\n\nMiddle line, mine.\n\nLast line, pushed.\n');
  assert.is(await branchOf(base), head, 'nothing written');
});

test('the shared editor’s connection: a forged ticket, a page of another site, or a reader refused; the edit page’s ticket connects', async () => {
  const { path, faqId } = await openChangeRequest('Shared');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const page = await editor.get(`${path}/p/${faqId}/edit`);
  const collab = /data-collab="([^"]+)"/.exec(page.html)?.[1]?.replace(/&#x26;|&amp;/g, '&');
  assert.ok(collab?.startsWith('/app/collab?ticket='), 'the edit page names its shared editor');
  const wsUrl = (target: string) => `${t.url.replace(/^http/, 'ws')}${target}`;
  /** The upgrade's answer: "open", or the status it was refused with. */
  const connect = (target: string, origin: string) =>
    new Promise<string>((resolve) => {
      const socket = new WebSocket(wsUrl(target), { origin });
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      socket.on('error', () => undefined);
    });
  const ours = t.url;
  assert.is(await connect(collab!, ours), 'open');
  assert.is(await connect(collab!, 'http://attacker.example'), '403', 'another site’s page');
  const [body, signature] = decodeURIComponent(collab!.split('ticket=')[1]!).split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), userId: fx.admin.id })).toString('base64url');
  assert.is(await connect(`/app/collab?ticket=${encodeURIComponent(`${forged}.${signature}`)}`, ours), '403', 'a ticket changed by hand');
  assert.is(await connect('/app/collab', ours), '403', 'no ticket');
  const reader = await signedInBrowser(t.url, fx.reader.email, password);
  assert.is((await reader.get(`${path}/p/${faqId}/collab`)).status, 403, 'a reader gets no ticket');
});

test('the page tree in a change request: renamed, moved up, in, out and by a drag’s place; a move that can’t be refused saying so', async () => {
  const { path, base, faqId } = await openChangeRequest('Rearranged');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const pages = await editor.get(`${path}/pages`);
  assert.match(pages.html, `aria-label="Move or rename FAQ"`);
  assert.match(pages.html, /<script src="\/app\/assets\/page-tree-drag-[^"]+\.js" defer nonce=/, 'pages can be dragged');
  const csrf = Browser.field(pages.html, 'csrf');
  const titles = async (): Promise<unknown[]> => {
    const tree = (await t.call('GET', `${base}/content`, { token: fx.editor.token })).body.pages as Array<{ title: string; pages: unknown[] }>;
    const walk = (list: Array<{ title: string; pages: unknown[] }>): unknown[] => list.map((page) => (page.pages.length ? [page.title, walk(page.pages as typeof list)] : page.title));
    return walk(tree);
  };
  const before = await titles();
  const faqAt = before.indexOf('FAQ');
  assert.ok(faqAt > 0, JSON.stringify(before));

  assert.is((await editor.post(`${path}/p/${faqId}/rename`, { csrf, title: 'Questions' })).status, 303);
  assert.is((await editor.post(`${path}/p/${faqId}/move`, { csrf, direction: 'up' })).status, 303);
  const up = await titles();
  assert.is(up.indexOf('Questions'), faqAt - 1, JSON.stringify(up));
  assert.is((await editor.post(`${path}/p/${faqId}/move`, { csrf, direction: 'in' })).status, 303);
  const under = await titles();
  const parent = under[faqAt - 2] as [string, unknown[]];
  assert.ok(Array.isArray(parent) && parent[1].at(-1) === 'Questions', `under the page above, last: ${JSON.stringify(under)}`);
  assert.is((await editor.post(`${path}/p/${faqId}/move`, { csrf, direction: 'out' })).status, 303);
  assert.is((await titles()).indexOf('Questions'), faqAt - 1, 'out: right after its parent');
  assert.is((await editor.post(`${path}/p/${faqId}/move`, { csrf, into: '', at: '0' })).status, 303);
  assert.is((await titles())[0], 'Questions', 'a drag’s place: first at the top');
  const refused = await editor.post(`${path}/p/${faqId}/move`, { csrf, direction: 'up' });
  assert.is(refused.status, 400);
  assert.match(refused.html, /can’t move up from where it is|can't move up from where it is/);
  assert.is((await editor.post(`${path}/p/${faqId}/rename`, { csrf, title: '  ' })).status, 400);
});

test('a shared page grown past what a room holds: the writer sending it is disconnected (1009), nothing of it kept or saved', async () => {
  const { path, base, faqId } = await openChangeRequest('Too big to share');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const collab = /data-collab="([^"]+)"/.exec((await editor.get(`${path}/p/${faqId}/edit`)).html)![1]!.replace(/&#x26;|&amp;/g, '&');
  const head = await branchOf(base);
  const limit = roomLimits.documentBytes;
  roomLimits.documentBytes = 256 * 1024;
  try {
    const socket = new WebSocket(`${t.url.replace(/^http/, 'ws')}${collab}`, { origin: t.url });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    // An update adding 300 KB of text to the shared page, as an editor would send it.
    const doc = new Y.Doc();
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText('x'.repeat(300 * 1024))]);
    doc.getXmlFragment('prosemirror').insert(0, [paragraph]);
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, 0);
    syncProtocol.writeUpdate(encoder, Y.encodeStateAsUpdate(doc));
    socket.send(encoding.toUint8Array(encoder));
    assert.is(await closed, 1009);
  } finally {
    roomLimits.documentBytes = limit;
  }
  await new Promise((resolve) => setTimeout(resolve, roomTiming.saveAfterMs + 500));
  assert.is(await branchOf(base), head, 'nothing saved');
});

test('the source editor’s preview: the markdown drawn as the page reads, nothing written; a reader refused; a page too deep says so', async () => {
  const { path, base, faqId } = await openChangeRequest('Previewed');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const form = await editor.get(`${path}/p/${faqId}/markdown`);
  assert.match(form.html, '<section class="source-preview" aria-labelledby="preview-title"><h2 id="preview-title">Preview</h2><article class="preview-body" aria-live="polite">');
  assert.match(form.html, /<article class="preview-body" aria-live="polite"><h2[^>]*>.*Where do I start\?/, 'the page as opened, drawn');
  const head = await branchOf(base);
  const csrf = Browser.field(form.html, 'csrf');
  const previewed = await editor.post(`${path}/p/${faqId}/preview`, { csrf, markdown: '## Fresh\n\nSee the [introduction](README.md) & <script>alert(1)</script>.\n' }, { accept: 'application/json' });
  assert.is(previewed.status, 200, previewed.html);
  const html = (JSON.parse(previewed.html) as { html: string }).html;
  assert.match(html, />Fresh<\/a><\/h2>/);
  assert.match(html, /<a href="\/app\/s\/[^"]+\/p\/[^"]+">introduction<\/a>/, 'a page link resolved in the branch');
  assert.not.match(html, '<script>', 'HTML in the markdown is not run');
  assert.match(html, '&#x3C;script>', 'but shown as written');
  assert.is(await branchOf(base), head, 'nothing written');
  const deep = await editor.post(`${path}/p/${faqId}/preview`, { csrf, markdown: `${'> '.repeat(400)}deep\n` }, { accept: 'application/json' });
  assert.match((JSON.parse(deep.html) as { html: string }).html, 'No preview:');
  const reader = await signedInBrowser(t.url, fx.reader.email, password);
  const readerForm = await reader.get('/app');
  assert.is((await reader.post(`${path}/p/${faqId}/preview`, { csrf: Browser.field(readerForm.html, 'csrf') ?? '', markdown: 'x' }, { accept: 'application/json' })).status, 403);
});

test('a new page, then deleted; a title of spaces refused and nothing written', async () => {
  const { path, base } = await openChangeRequest('Pages come and go');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const pages = await editor.get(`${path}/pages`);
  const head = await branchOf(base);
  assert.is((await editor.post(`${path}/pages`, { csrf: Browser.field(pages.html, 'csrf'), title: '   ' })).status, 400);
  assert.is(await branchOf(base), head);
  const made = await editor.post(`${path}/pages`, { csrf: Browser.field(pages.html, 'csrf'), title: 'Release notes' });
  assert.is(made.status, 303);
  const pageId = /\/p\/([^/]+)\/edit$/.exec(made.location!)?.[1];
  assert.ok(pageId, made.location!);
  assert.match((await editor.get(made.location!)).html, '<h1>Edit Release notes</h1>');
  assert.is((await editor.post(`${path}/p/${pageId}/delete`, { csrf: Browser.field(pages.html, 'csrf') })).status, 303);
  assert.is((await t.call('GET', `${base}/content/page/${pageId}`, { token: fx.editor.token })).status, 404);
});

test('a live space: Edit on its pages writes straight to its primary branch; merge rules, a locked space and a reader edit nothing', async () => {
  const live = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Live notes', template: { id: 'getting-started' } } })).body;
  assert.is(live.editMode, 'live');
  const spacePath = `/app/s/${live.id}`;
  const faqId = (await t.call('GET', `/v1/spaces/${live.id}/content/path/faq`, { token: fx.editor.token })).body.id as string;
  const headOf = async () => (await t.call('GET', `/v1/spaces/${live.id}`, { token: fx.editor.token })).body.revision as string;
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const reader = await signedInBrowser(t.url, fx.reader.email, password);
  const editLink = `<a href="${spacePath}/p/${faqId}/edit" class="button edit-page">Edit</a>`;
  assert.match((await editor.get(`${spacePath}/p/${faqId}`)).html, editLink);
  assert.not.match((await reader.get(`${spacePath}/p/${faqId}`)).html, `/p/${faqId}/edit`, 'a reader is offered no Edit');
  assert.is((await reader.get(`${spacePath}/p/${faqId}/edit`)).status, 403);

  const opened = await openBlockEditor(editor, spacePath, faqId);
  const before = await headOf();
  assert.is(opened.base, before, 'opened at the space’s head');
  const first = opened.blocks.findIndex((block) => block.node?.type === 'paragraph');
  const paragraph = { ...opened.blocks[first]!.node!, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Written live.', marks: [] }] }] };
  const blocks = opened.blocks.map((block, index) => (index === first ? { node: paragraph, was: block.key } : { keep: block.key }));
  const saved = await saveBlocks(editor, spacePath, faqId, { csrf: opened.csrf, base: opened.base, title: 'FAQ', blocks: JSON.stringify(blocks) });
  assert.is(saved.status, 200, saved.html);
  const head = (JSON.parse(saved.html) as { head: string }).head;
  assert.is(await headOf(), head, 'the space’s revision is the save');
  const gitdir = spaceGitdir(t.dataDir, live.id);
  assert.is(gitValue(gitdir, 'rev-parse', 'refs/heads/main'), head, 'on the primary branch');
  assert.is(gitValue(gitdir, 'rev-parse', `${head}^`), before, 'one commit');
  assert.match(gitValue(gitdir, 'show', `${head}:faq.md`), /^Written live\.$/m);
  assert.match((await editor.get(`${spacePath}/p/${faqId}`)).html, 'Written live.', 'the space reads the save at once');

  const form = await editor.get(`${spacePath}/p/${faqId}/markdown`);
  const markdownSave = await editor.post(`${spacePath}/p/${faqId}/markdown`, {
    csrf: Browser.field(form.html, 'csrf'),
    base: Browser.field(form.html, 'base'),
    title: 'FAQ',
    markdown: 'In markdown.\n',
  });
  assert.is(markdownSave.status, 303, markdownSave.html.slice(0, 300));
  assert.is(markdownSave.location, `${spacePath}/p/${faqId}`, 'back to the page as it reads');
  const pages = await editor.get(`${spacePath}/pages`);
  assert.match(pages.html, `<a href="${spacePath}/p/${faqId}/edit" aria-label="Edit FAQ">FAQ</a>`);
  const made = await editor.post(`${spacePath}/pages`, { csrf: Browser.field(pages.html, 'csrf'), title: 'Live page' });
  assert.is(made.status, 303);
  assert.match(made.location!, new RegExp(`^${spacePath}/p/[^/]+/edit$`));
  const collab = /data-collab="([^"]+)"/.exec((await editor.get(`${spacePath}/p/${faqId}/edit`)).html)?.[1]?.replace(/&#x26;|&amp;/g, '&');
  const connect = () =>
    new Promise<string>((resolve) => {
      const socket = new WebSocket(`${t.url.replace(/^http/, 'ws')}${collab}`, { origin: t.url });
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      socket.on('error', () => undefined);
    });
  assert.is(await connect(), 'open', 'a live page is shared as a change request’s is');

  // Merge rules ask for reviews: a live edit would skip them, as a push to main would.
  const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] };
  assert.is((await t.call('PATCH', `/v1/spaces/${live.id}`, { token: fx.admin.token, body: { mergeRules: rules } })).status, 200);
  assert.not.match((await editor.get(`${spacePath}/p/${faqId}`)).html, `/p/${faqId}/edit`, 'no Edit where the rules ask for change requests');
  const ruled = await editor.get(`${spacePath}/p/${faqId}/edit`);
  assert.is(ruled.status, 403);
  assert.match(ruled.html, 'The merge rule require_at_least_one_review applies');
  const ruledSave = await saveBlocks(editor, spacePath, faqId, { csrf: opened.csrf, base: await headOf(), title: 'FAQ', blocks: JSON.stringify(blocks) });
  assert.is(ruledSave.status, 403);

  assert.is((await t.call('PATCH', `/v1/spaces/${live.id}`, { token: fx.admin.token, body: { editMode: 'locked' } })).status, 200);
  const locked = await headOf();
  assert.not.match((await editor.get(`${spacePath}/p/${faqId}`)).html, `/p/${faqId}/edit`, 'a locked space offers no Edit');
  assert.is((await editor.get(`${spacePath}/p/${faqId}/edit`)).status, 423);
  const refused = await saveBlocks(editor, spacePath, faqId, { csrf: opened.csrf, base: locked, title: 'FAQ', blocks: JSON.stringify(blocks) });
  assert.is(refused.status, 423);
  assert.match(JSON.parse(refused.html).error.message, 'is locked');
  assert.is(await connect(), '410', 'its shared editor closed to new writers');
  assert.is(await headOf(), locked, 'nothing written');
});

test.run();
