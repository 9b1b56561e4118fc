import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertErrorIs, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { configureIntegrations } from '../../domain/common/integrations.js';
import { gitOut } from '../helpers/gitClient.js';

const test = suite('translations');
let t: TestServer;
let fx: OrganizationFixture;
let translator: Server;
let translatorUrl: string;
/** What the loopback translators received: LibreTranslate's `q` lists, and the chat requests. */
const received: { q: string[]; source: string; target: string; format: string }[] = [];
const chats: { system: string; texts: string[] }[] = [];
/** Answers the translator gives before translating (a status per request: 429, 400…), first first. */
const failures: number[] = [];

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

test.before(
  reportingErrors(async () => {
    translator = createServer(async (req, res) => {
      const body = await bodyOf(req);
      const failure = failures.shift();
      if (failure) return void res.writeHead(failure, { 'content-type': 'application/json' }).end('{"error":"no"}');
      if (req.url === '/translate') {
        received.push(body);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: body.q.map((text: string) => `FR ${text}`) }));
      }
      if (req.url === '/v1/chat/completions') {
        const texts = JSON.parse(body.messages[1].content) as string[];
        chats.push({ system: body.messages[0].content, texts });
        const content = JSON.stringify(texts.map((text) => `DE ${text}`));
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }], usage: { total_tokens: 500 } }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => translator.listen(0, '127.0.0.1', resolve));
    translatorUrl = `http://127.0.0.1:${(translator.address() as AddressInfo).port}`;
    configureIntegrations({ translator: { kind: 'libretranslate', url: translatorUrl } });
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  await t?.close();
  translator?.closeAllConnections();
  translator?.close();
  configureIntegrations({ translator: { kind: 'pseudo' } });
});

const base = () => `/v1/orgs/${fx.org.id}/translations`;
const git = (spaceId: string, ...args: string[]) => gitOut(spaceGitdir(t.dataDir, spaceId), ...args);
const commits = (spaceId: string) => git(spaceId, 'rev-list', '--count', 'main').trim();
/** The words of the prose sent: the texts travel as HTML, and tags are no words. */
const words = (texts: string[]) => texts.reduce((sum, text) => sum + (text.replace(/<[^>]*>/g, ' ').match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0), 0);
const sentTexts = (from: number) => received.slice(from).flatMap((request) => request.q);

/** The translation once it has completed `runs` runs. */
const completed = (id: string, runs: number) =>
  until(
    `translation ${id} to complete run ${runs}`,
    async () => {
      const found = (await t.call('GET', `${base()}/${id}`, { token: fx.reader.token })).body;
      return found.status === 'completed' && found.stats.runs === runs ? found : undefined;
    },
    30_000,
  );

async function sourceSpace(title: string) {
  return (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body;
}

async function mergeChanges(spaceId: string, changes: unknown[]) {
  const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject: 'Edit' } })).body;
  const url = `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}`;
  assert.is((await t.call('POST', `${url}/content`, { token: fx.editor.token, body: { changes } })).status, 200);
  assert.is((await t.call('POST', `${url}/merge`, { token: fx.editor.token })).body.result, 'merge');
}

let translationId: string;
let sourceId: string;
let targetId: string;

test('create: 201 and a first run that translates every page into a new space, markup passing through', async () => {
  const source = await sourceSpace('Guide');
  sourceId = source.id;
  const created = await t.call('POST', base(), { token: fx.creator.token, body: { language: 'fr', source: { space: source.id, language: 'en' } } });
  assert.is(created.status, 201);
  assert.is(created.body.object, 'translation');
  assert.is(created.body.language, 'fr');
  assert.equal(created.body.source, { space: source.id, language: 'en' });
  assert.equal(created.body.instructions, { object: 'document', data: {}, nodes: [] });
  assert.ok(['pending', 'running', 'completed'].includes(created.body.status));
  assert.equal(created.body.permissions, { view: true, edit: true });
  translationId = created.body.id;

  const done = await completed(translationId, 1);
  targetId = done.result.space;
  const target = (await t.call('GET', `/v1/spaces/${targetId}`, { token: fx.admin.token })).body;
  assert.is(target.title, 'Guide (fr)');
  assert.is(target.language, 'fr');
  assert.is(done.result.revision, git(targetId, 'rev-parse', 'main').trim());
  assert.is(commits(targetId), '2', 'the empty space, then one commit of the whole run');

  const configuration = git(targetId, 'show', 'main:quick-start/configuration.md');
  assert.match(configuration, /^---\npageId: \w+\n---\n\n# FR Configuration\n\nFR Every setting lives in one file\.\n\n```yaml\nport: 3000\n```\n/);
  assert.match(configuration, /FR See also \[the old setup guide\]\(setup\.md\), which has moved\./, 'the sentence reaches the translator whole; the link comes back with its target');
  const quickStart = git(targetId, 'show', 'main:quick-start.md');
  assert.match(quickStart, /\{% hint style="info" %\}\nFR It takes five minutes\.\n\{% endhint %\}/, 'GitBook tags pass through');
  assert.is(git(targetId, 'show', 'main:.gitbook/assets/logo.png'), git(sourceId, 'show', 'main:.gitbook/assets/logo.png'), 'files are copied as they are');
  assert.match(git(targetId, 'show', 'main:SUMMARY.md'), /\[FR Quick start\]\(quick-start\.md\)/);

  const pages = git(sourceId, 'ls-tree', '-r', '--name-only', 'main')
    .split('\n')
    .filter((path) => path.endsWith('.md') && path !== 'SUMMARY.md').length;
  assert.equal(done.stats, {
    runs: 1,
    totalWords: words(sentTexts(0)),
    totalPages: pages,
    totalDuration: done.stats.totalDuration,
    latestRunDuration: done.stats.latestRunDuration,
    latestPages: pages,
    latestWords: words(sentTexts(0)),
  });
  assert.ok(received.every((request) => request.source === 'en' && request.target === 'fr' && request.format === 'html'));
  assert.ok(received.flatMap((request) => request.q).includes('See also <a id="a0">the old setup guide</a>, which has moved.'), 'a sentence with a link is one text');
  const pagesRead = await t.call('GET', `/v1/spaces/${targetId}/content/pages`, { token: fx.reader.token });
  assert.is(pagesRead.body.pages[0].title, 'FR Introduction', 'the translated space reads like any other');
});

test('run again: only pages whose source changed are translated; removed pages are removed; nothing changed, no commit', async () => {
  const before = received.length;
  assert.is((await t.call('POST', `${base()}/${translationId}/run`, { token: fx.creator.token })).status, 204);
  const unchanged = await completed(translationId, 2);
  assert.is(received.length, before, 'nothing to translate');
  assert.is(commits(targetId), '2', 'no empty commit');
  assert.is(unchanged.stats.latestPages, 0);

  const pages = (await t.call('GET', `/v1/spaces/${sourceId}/content/pages`, { token: fx.reader.token })).body.pages;
  const faq = pages.find((page: { title: string }) => page.title === 'FAQ');
  const configuration = pages.find((page: { title: string }) => page.title === 'Quick start').pages[0];
  await mergeChanges(sourceId, [
    { operation: 'update_page', page: faq.id, document: { markdown: 'Ask us anything.\n' } },
    { operation: 'delete_page', page: configuration.id },
  ]);
  assert.is((await t.call('POST', `${base()}/${translationId}/run`, { token: fx.creator.token })).status, 204);
  const rerun = await completed(translationId, 3);
  const sent = sentTexts(before);
  assert.ok(sent.includes('Ask us anything.'), JSON.stringify(sent));
  assert.not.ok(sent.includes('It takes five minutes.'), 'an unchanged page is not sent again (SUMMARY.md is: it changed)');
  assert.is(rerun.stats.latestPages, 1, 'the FAQ (SUMMARY.md changed too, but it is not a page)');
  assert.is(rerun.stats.totalPages, unchanged.stats.totalPages, 'unique pages ever translated');
  assert.is(rerun.stats.totalWords, unchanged.stats.totalWords + words(sent));
  assert.match(git(targetId, 'show', 'main:faq.md'), /FR Ask us anything\./);
  assert.not.ok(git(targetId, 'ls-tree', '-r', '--name-only', 'main').includes('quick-start/configuration.md'), 'removed from the target too');
  assert.is(commits(targetId), '3');
});

test('instructions: PUT replaces them and re-reads; an OpenAI-compatible translator gets them as guidance', async () => {
  const instructions = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use the formal Sie.', marks: [] }] }] }] };
  const source = await sourceSpace('Handbuch');
  configureIntegrations({ translator: { kind: 'openai', url: `${translatorUrl}/v1`, model: 'gpt-4o-mini' } });
  try {
    const created = (await t.call('POST', base(), { token: fx.creator.token, body: { language: 'de', source: { space: source.id, language: 'en' }, instructions } })).body;
    const done = await completed(created.id, 1);
    assert.ok(chats.length > 0);
    assert.ok(
      chats.every((chat) => chat.system.includes('Use the formal Sie.')),
      chats[0]!.system,
    );
    assert.match(git(done.result.space, 'show', 'main:faq.md'), /## DE Where do I start\?/);
    // Each call of the model counts against the organization's AI usage: 500 tokens, half a credit.
    const today = new Date().toISOString().slice(0, 10);
    const usage = await t.call('GET', `/v1/orgs/${fx.org.id}/billing/ai-usage?from=${today}T00:00:00Z&to=2100-01-01T00:00:00Z`, { token: fx.admin.token });
    assert.equal(usage.body.periods[0].features, [{ feature: 'translations', credits: chats.length * 0.5, creditsPercent: 100 }]);

    const changed = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use du.', marks: [] }] }] }] };
    const put = await t.call('PUT', `${base()}/${created.id}`, { token: fx.creator.token, body: { instructions: changed } });
    assert.is(put.status, 200);
    assert.equal(put.body.instructions, { ...changed, data: {} }, 'with the empty data upstream requires');
    assert.equal((await t.call('GET', `${base()}/${created.id}`, { token: fx.reader.token })).body.instructions, { ...changed, data: {} });
  } finally {
    configureIntegrations({ translator: { kind: 'libretranslate', url: translatorUrl } });
  }
});

test('a busy translator (429) is retried; one that refuses (400) ends the run with the stats unchanged', async () => {
  const source = await sourceSpace('Retry');
  failures.push(429);
  const created = (await t.call('POST', base(), { token: fx.creator.token, body: { language: 'es', source: { space: source.id, language: 'en' } } })).body;
  const done = await completed(created.id, 1);
  assert.ok(done.result, 'translated after the retry');

  failures.push(400, 400, 400, 400, 400, 400);
  await mergeChanges(source.id, [
    { operation: 'update_page', page: (await t.call('GET', `/v1/spaces/${source.id}/content/pages`, { token: fx.reader.token })).body.pages[0].id, document: { markdown: 'New intro.\n' } },
  ]);
  assert.is((await t.call('POST', `${base()}/${created.id}/run`, { token: fx.creator.token })).status, 204);
  const failed = await until(
    'the refused run to end',
    async () => {
      const found = (await t.call('GET', `${base()}/${created.id}`, { token: fx.reader.token })).body;
      return found.status === 'completed' && found.updatedAt > done.updatedAt ? found : undefined;
    },
    30_000,
  );
  assert.equal(failed.stats, done.stats, 'a failed run counts for nothing');
  assert.is(failed.result.revision, done.result.revision);
  assert.is(failures.length, 5, 'refused once, not retried');
  failures.length = 0;
});

test('list, errors, permissions and delete', async () => {
  const list = await t.call('GET', base(), { token: fx.reader.token });
  assert.is(list.status, 200);
  assert.is(list.body.items.length, 3);
  assert.equal(list.body.items[0].permissions, { view: true, edit: false });

  const other = await t.call('POST', `/v1/orgs/${fx.elsewhere.id}/spaces`, { token: fx.outsider.token, body: { title: 'Theirs' } });
  const theirs = other.status === 201 ? other.body.id : 'missing-space';
  assertErrorIs(
    await t.call('POST', base(), { token: fx.creator.token, body: { language: 'fr', source: { space: theirs, language: 'en' } } }),
    400,
    `"source.space" ${theirs} is not a space of organization ${fx.org.id} that you can read`,
  );
  assertErrorIs(
    await t.call('POST', base(), { token: fx.creator.token, body: { language: 'en', source: { space: sourceId, language: 'en' } } }),
    400,
    '"language" is the source\'s language (en): choose another to translate into',
  );
  assert.is((await t.call('POST', base(), { token: fx.creator.token, body: { language: 'klingon', source: { space: sourceId, language: 'en' } } })).status, 400);
  assert.is((await t.call('POST', base(), { token: fx.reader.token, body: { language: 'fr', source: { space: sourceId, language: 'en' } } })).status, 403);
  assertErrorIs(await t.call('GET', `${base()}/nope`, { token: fx.reader.token }), 404, 'Translation nope not found');
  assert.is((await t.call('DELETE', `${base()}/${translationId}`, { token: fx.creator.token })).status, 403, 'deleting is for admins');

  assert.is((await t.call('DELETE', `${base()}/${translationId}`, { token: fx.admin.token })).status, 204);
  assert.is((await t.call('GET', `${base()}/${translationId}`, { token: fx.reader.token })).status, 404);
  assert.is((await t.call('GET', `/v1/spaces/${targetId}`, { token: fx.reader.token })).status, 200, 'the translated space stays');
  assert.is((await t.call('GET', base(), { token: fx.reader.token })).body.items.length, 2);
});

test("a space the caller can't read is no source: refused when asked for, and a run stops when its creator loses the right", async () => {
  const secret = 'Zanzibar-otter-protocol';
  const hidden = await sourceSpace('Hidden');
  await mergeChanges(hidden.id, [{ operation: 'insert_page', title: 'Plans', document: { markdown: `The plan is ${secret}.\n` } }]);
  await t.call('PATCH', `/v1/spaces/${hidden.id}`, { token: fx.admin.token, body: { defaultLevel: null } });
  assert.is((await t.call('GET', `/v1/spaces/${hidden.id}`, { token: fx.creator.token })).status, 404, 'the creator cannot see it');
  const before = (await t.call('GET', base(), { token: fx.admin.token })).body.items.length;
  assertErrorIs(
    await t.call('POST', base(), { token: fx.creator.token, body: { language: 'de', source: { space: hidden.id, language: 'en' } } }),
    400,
    `"source.space" ${hidden.id} is not a space of organization ${fx.org.id} that you can read`,
  );
  assert.is((await t.call('GET', base(), { token: fx.admin.token })).body.items.length, before, 'no translation was made');
  const searched = await t.call('GET', `/v1/orgs/${fx.org.id}/search?query=${secret}`, { token: fx.creator.token });
  assert.equal(searched.body.items, [], 'nothing of it is searchable by the creator');

  // Made while the creator could read the source; then the source closes to them.
  const open = await sourceSpace('Closing');
  const created = (await t.call('POST', base(), { token: fx.creator.token, body: { language: 'it', source: { space: open.id, language: 'en' } } })).body;
  const done = await completed(created.id, 1);
  await mergeChanges(open.id, [{ operation: 'insert_page', title: 'Later', document: { markdown: `Later: ${secret}.\n` } }]);
  await t.call('PATCH', `/v1/spaces/${open.id}`, { token: fx.admin.token, body: { defaultLevel: null } });
  assertErrorIs(await t.call('POST', `${base()}/${created.id}/run`, { token: fx.creator.token }), 400, `The source space ${open.id} of translation ${created.id} is not one you can read`);
  // An admin who can read it starts the run: the job still reads only what the creator may.
  assert.is((await t.call('POST', `${base()}/${created.id}/run`, { token: fx.admin.token })).status, 204);
  const ended = await until(
    'the refused run to end',
    async () => {
      const found = (await t.call('GET', `${base()}/${created.id}`, { token: fx.reader.token })).body;
      return found.status === 'completed' && found.updatedAt > done.updatedAt ? found : undefined;
    },
    30_000,
  );
  assert.is(ended.result.revision, done.result.revision, 'the target did not change');
  assert.not.match(git(done.result.space, 'grep', '-c', '', 'main').toString(), secret);
  assert.not.ok(git(done.result.space, 'ls-tree', '-r', '--name-only', 'main').includes('later.md'));
});

test('the glossary: entries changed all or none, read in order, and rendered as it says in the runs after', async () => {
  const glossary = `/v1/orgs/${fx.org.id}/translations-glossary`;
  const put = (token: string, operations: unknown[]) => t.call('PUT', glossary, { token, body: { operations } });
  assert.is(
    (
      await put(fx.creator.token, [
        { type: 'insert', translations: { en: 'setting', fr: 'paramètre' } },
        { type: 'insert', translations: { en: 'one file', fr: 'un seul fichier', de: 'eine Datei' } },
        { type: 'insert', translations: { en: 'port' } },
      ])
    ).status,
    204,
  );
  const listed = await t.call('GET', `${glossary}?orderBy=fr`, { token: fx.reader.token });
  assert.is(listed.status, 200);
  assert.equal(
    listed.body.items.map((entry: { translations: Record<string, string> }) => entry.translations.en),
    ['setting', 'one file', 'port'],
    'by the French term, entries without one last',
  );
  const port = listed.body.items[2];
  assert.equal((await t.call('GET', `${glossary}/${port.id}`, { token: fx.reader.token })).body.translations, { en: 'port' });

  // One operation naming no entry refuses them all: the insert before it is not kept.
  const refused = await put(fx.creator.token, [
    { type: 'insert', translations: { en: 'kept?' } },
    { type: 'delete', id: 'nope' },
  ]);
  assertErrorIs(refused, 400, '"operations[1]": the glossary has no entry "nope"');
  assert.is((await t.call('GET', glossary, { token: fx.reader.token })).body.count, 3);
  assert.is((await put(fx.reader.token, [{ type: 'delete', id: port.id }])).status, 403);
  assert.is((await put(fx.creator.token, [{ type: 'insert', translations: { klingon: 'x' } }])).status, 400);
  assert.is((await put(fx.creator.token, [{ type: 'insert', translations: { en: 'two\nlines' } }])).status, 400);
  assert.is((await put(fx.creator.token, [{ type: 'update', id: port.id, translations: { en: 'port', fr: 'port réseau' } }])).status, 204);
  assert.is((await t.call('GET', `${glossary}/nope`, { token: fx.reader.token })).status, 404);

  const source = await sourceSpace('Glossed');
  const sentBefore = received.length;
  const created = await t.call('POST', base(), { token: fx.creator.token, body: { language: 'fr', source: { space: source.id, language: 'en' } } });
  const done = await completed(created.body.id, 1);
  const configuration = git(done.result.space, 'show', 'main:quick-start/configuration.md');
  assert.match(configuration, /FR Every paramètre lives in un seul fichier\./, 'each term as the glossary has it in French');
  assert.ok(sentTexts(sentBefore).includes('Every <g id="1">setting</g> lives in <g id="0">one file</g>.'), 'the translator saw the terms set aside, the longest first');
  assert.not.match(configuration, /<g /, 'no mark of it is left');
  assert.match(configuration, /```yaml\nport: 3000\n```/, 'code is never glossed');
  assert.is(
    (
      await put(
        fx.creator.token,
        listed.body.items.map((entry: { id: string }) => ({ type: 'delete', id: entry.id })),
      )
    ).status,
    204,
  );
});

test.run();
