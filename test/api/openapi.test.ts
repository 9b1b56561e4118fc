import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, messages, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { configureIntegrations } from '../../domain/common/integrations.js';

const test = suite('OpenAPI specifications');
let t: TestServer;
let fx: OrganizationFixture;
let specs: string;
let source: Server;
let sourceUrl: string;
/** What the loopback source server answers, by path; a function for special behaviours. */
const files = new Map<string, string | 'slow' | 404>();
const hits = new Map<string, number>();

const petsV1 = `openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Pet' }
`;
const schemasYaml = `Pet:
  type: object
  properties:
    name: { type: string }
`;

test.before(
  reportingErrors(async () => {
    configureIntegrations({ allowPrivateFetch: true, fetchTimeoutMs: 400 });
    source = createServer((req, res) => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const file = files.get(path);
      if (file === 'slow') return void res.writeHead(200).write('openapi: ');
      if (file === undefined || file === 404) return void res.writeHead(404).end('not here');
      res.writeHead(200, { 'content-type': path.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(file);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
    specs = `/v1/orgs/${fx.org.id}/openapi`;
  }),
);
test.after(async () => {
  await t?.close();
  source?.closeAllConnections();
  source?.close();
  configureIntegrations({ allowPrivateFetch: false, fetchTimeoutMs: 30_000 });
});

const get = (slug: string) => t.call('GET', `${specs}/${slug}`, { token: fx.reader.token });
/** Waits for the job to finish: `complete`, and processed after `since`. */
const processed = (slug: string, since: string) =>
  until(
    `${slug} to be processed`,
    async () => {
      const spec = (await get(slug)).body;
      return spec.processingState === 'complete' && spec.lastProcessedAt > since ? spec : undefined;
    },
    20_000,
  );
const versions = async (slug: string) => (await t.call('GET', `${specs}/${slug}/versions`, { token: fx.reader.token })).body;

test('create by URL: pending at once, then a complete version bundling the multi-file $refs, served back', async () => {
  files.set('/pets/openapi.yaml', petsV1);
  files.set('/pets/schemas.yaml', schemasYaml);
  const before = new Date().toISOString();
  const created = await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'pets', source: { url: `${sourceUrl}/pets/openapi.yaml` } } });
  assert.is(created.status, 201);
  assert.is(created.body.slug, 'pets');
  assert.is(created.body.sourceURL, `${sourceUrl}/pets/openapi.yaml`);
  assert.ok(['pending', 'progress'].includes(created.body.processingState));
  assert.equal(created.body.permissions, { view: true, edit: true });
  assert.is(created.body.urls.location, `${fx.org.urls && (fx.org.urls as { location: string }).location}/openapi/pets`);

  const done = await processed('pets', before);
  assert.ok(done.lastVersion);
  assert.is(done.lastProcessErrorCode, undefined);
  assert.equal((await get('pets')).body.permissions, { view: true, edit: false });
  const list = await versions('pets');
  assert.is(list.count, 1);
  assert.is(list.items[0].id, done.lastVersion);
  assert.is(list.items[0].url, `${sourceUrl}/pets/openapi.yaml`);
  const latest = await t.call('GET', `${specs}/pets/versions/latest`, { token: fx.reader.token });
  assert.equal(latest.body, list.items[0]);
  const byId = await t.call('GET', `${specs}/pets/versions/${done.lastVersion}`, { token: fx.reader.token });
  assert.equal(byId.body, latest.body);
  // The entry file as it was fetched: YAML, word for word (its $ref unresolved).
  const raw = await t.call('GET', `${specs}/pets/versions/latest/content/raw`, { token: fx.reader.token });
  assert.is(raw.status, 200);
  assert.equal(raw.body, { text: petsV1, format: 'yaml' });
  for (const path of ['latest/content', `${done.lastVersion}/content`]) {
    const content = await t.call('GET', `${specs}/pets/versions/${path}`, { token: fx.reader.token });
    assert.is(content.status, 200);
    assert.is(content.body.url, `${sourceUrl}/pets/openapi.yaml`);
    const bundled = content.body.filesystem['openapi.json'];
    assert.is(bundled.info.title, 'Pets');
    // The external file's schema is inside the one bundled document now.
    assert.equal(bundled.paths['/pets'].get.responses['200'].content['application/json'].schema, { type: 'object', properties: { name: { type: 'string' } } });
  }
  assert.equal(
    (await t.call('GET', specs, { token: fx.reader.token })).body.items.map((item: { slug: string }) => item.slug),
    ['pets'],
  );
});

test("descriptions also as sanitized HTML (examples left alone); GitBook's API client gets the files as its parser's list", async () => {
  const text = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Described', version: '1', description: 'Read **this** first. <script>alert(1)</script>' },
    paths: {
      '/things': {
        get: {
          description: 'Every thing, `newest` first.',
          responses: {
            200: {
              description: 'The things',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { note: { type: 'string', description: 'A _note_' }, example: { type: 'string', description: 'A property *named* example' } },
                    default: { description: 'data too' },
                  },
                  example: { description: 'data, not docs' },
                },
              },
            },
          },
        },
      },
    },
    components: { schemas: { Planted: { type: 'object', 'x-gitbook-description-html': '<img src=x onerror=alert(1)>' } } },
  });
  const since = new Date().toISOString();
  assert.is((await t.call('PUT', `${specs}/described`, { token: fx.creator.token, body: { source: { text } } })).status, 201);
  await processed('described', since);
  const content = await t.call('GET', `${specs}/described/versions/latest/content`, { token: fx.reader.token });
  // An uploaded text is kept as sent, JSON too; its descriptions' HTML is only in the processed version.
  assert.equal((await t.call('GET', `${specs}/described/versions/latest/content/raw`, { token: fx.reader.token })).body, { text, format: 'json' });
  const bundled = content.body.filesystem['openapi.json'];
  assert.is(bundled.info['x-gitbook-description-html'], '<p>Read <strong>this</strong> first. alert(1)</p>', 'raw HTML dropped: the script element is gone, its text is text');
  assert.is(bundled.paths['/things'].get['x-gitbook-description-html'], '<p>Every thing, <code>newest</code> first.</p>');
  const response = bundled.paths['/things'].get.responses['200'];
  assert.is(response['x-gitbook-description-html'], '<p>The things</p>');
  assert.is(response.content['application/json'].schema.properties.note['x-gitbook-description-html'], '<p>A <em>note</em></p>');
  assert.equal(response.content['application/json'].example, { description: 'data, not docs' }, 'an example is data');
  const schema = response.content['application/json'].schema;
  assert.equal(schema.default, { description: 'data too' }, 'a default is data');
  assert.is(schema.properties.example['x-gitbook-description-html'], '<p>A property <em>named</em> example</p>', 'a property named example is documented');
  assert.equal(bundled.components.schemas.Planted, { type: 'object' }, 'HTML the spec brought itself is never served');
  assert.is(content.body.urls.source, content.body.url);

  // Not through t.call, which holds every answer to the spec: this one is GitBook's list, which the spec's object type refuses (docs/decisions/jobs.md, "OpenAPI specifications and outbound fetches").
  const asGitBook = await fetch(`${t.url}${specs}/described/versions/latest/content`, { headers: { authorization: `Bearer ${fx.reader.token}`, 'user-agent': 'GitBook-Open/2.0.0' } });
  assert.is(asGitBook.status, 200);
  const listed = (await asGitBook.json()) as { filesystem: unknown; urls: unknown };
  assert.equal(listed.filesystem, [{ dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json', specification: bundled }]);
  assert.equal(listed.urls, content.body.urls);
  assert.match(asGitBook.headers.get('vary') ?? '', /user-agent/i);
});

test('PUT: re-processing unchanged content makes no version; new content makes one; an invalid spec keeps the last good one', async () => {
  let since = new Date().toISOString();
  const again = await t.call('PUT', `${specs}/pets`, { token: fx.creator.token, body: { source: { url: `${sourceUrl}/pets/openapi.yaml` } } });
  assert.is(again.status, 200);
  const first = (await processed('pets', since)).lastVersion;
  assert.is((await versions('pets')).count, 1, 'unchanged content, no new version');

  files.set('/pets/schemas.yaml', schemasYaml + '    age: { type: integer }\n');
  since = new Date().toISOString();
  await t.call('PUT', `${specs}/pets`, { token: fx.creator.token, body: { source: { url: `${sourceUrl}/pets/openapi.yaml` } } });
  const second = (await processed('pets', since)).lastVersion;
  assert.is.not(second, first);
  const list = await versions('pets');
  assert.is(list.count, 2);
  assert.equal(
    list.items.map((item: { id: string }) => item.id),
    [second, first],
    'newest first',
  );

  since = new Date().toISOString();
  const broken = `openapi: 3.0.3\ninfo: { title: Pets }\npaths:\n  /pets:\n    get: {}\n`;
  await t.call('PUT', `${specs}/pets`, { token: fx.creator.token, body: { source: { text: broken } } });
  const failed = await processed('pets', since);
  assert.is(failed.lastProcessErrorCode, 'PARSE_ERROR');
  assert.is(failed.lastVersion, second, 'the last good version stays');
  assert.is(failed.sourceURL, undefined);
  const problems = failed.lastProcessedErrors.map((problem: { message: string }) => problem.message);
  assert.ok(problems.includes('at /info: must have required property \'version\' {"missingProperty":"version"}'), JSON.stringify(problems));
  assert.ok(problems.includes('at /paths/~1pets/get: must have required property \'responses\' {"missingProperty":"responses"}'), JSON.stringify(problems));
  assert.is((await versions('pets')).count, 2);

  since = new Date().toISOString();
  await t.call('PUT', `${specs}/pets`, { token: fx.creator.token, body: { source: { text: 'openapi: [3.0\n  :' } } });
  const unparsable = await processed('pets', since);
  assert.is(unparsable.lastProcessErrorCode, 'PARSE_ERROR');
  assert.match(unparsable.lastProcessedErrors[0].message, /^line \d+, column \d+: /);
});

test('uploaded text: Swagger 2.0 and OpenAPI 3.1; PUT on a new slug creates (201); content url is the API', async () => {
  const swagger = JSON.stringify({ swagger: '2.0', info: { title: 'Old', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
  const v31 = `openapi: 3.1.0\ninfo: { title: New, version: '2' }\npaths:\n  /b:\n    get:\n      responses:\n        '200': { description: ok }\n`;
  for (const [slug, text, title] of [
    ['old-api', swagger, 'Old'],
    ['new-api', v31, 'New'],
  ] as const) {
    const since = new Date().toISOString();
    // Slugs are case-insensitive, kept in lower case.
    const put = await t.call('PUT', `${specs}/${slug === 'new-api' ? 'New-API' : slug}`, { token: fx.creator.token, body: { source: { text } } });
    assert.is(put.status, 201);
    assert.is(put.body.slug, slug);
    const done = await processed(slug, since);
    assert.is(done.lastProcessErrorCode, undefined, JSON.stringify(done.lastProcessedErrors));
    const content = await t.call('GET', `${specs}/${slug}/versions/latest/content`, { token: fx.reader.token });
    assert.is(content.body.filesystem['openapi.json'].info.title, title);
    assert.is(content.body.url, `${done.urls.location}/versions/${done.lastVersion}/content`);
  }
});

test("a published site's token reads the organization's public specifications, never a private one its site's pages don't name, nor the list", async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'API docs' } })).body;
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Docs', spaces: [space.id] } })).body;
  const published = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).body;
  const token = (await t.call('POST', '/v1/urls/published', { body: { url: published.urls.published } })).body.apiToken as string;
  const read = (path: string) => t.call('GET', path, { headers: { authorization: `Bearer ${token}` } });
  assert.is((await t.call('PATCH', `${specs}/new-api`, { token: fx.admin.token, body: { visibility: 'private' } })).status, 200);
  assert.is((await read(`${specs}/new-api/versions/latest/content`)).status, 404, 'a private specification is not there for a site token');
  assert.is((await t.call('PATCH', `${specs}/new-api`, { token: fx.admin.token, body: { visibility: 'public' } })).status, 200);
  const content = await read(`${specs}/new-api/versions/latest/content`);
  assert.is(content.status, 200, JSON.stringify(content.body));
  assert.is(content.body.filesystem['openapi.json'].info.title, 'New');
  assert.is((await read(`${specs}/new-api`)).status, 200);
  assert.is((await read(specs)).status, 403, "nor the organization's list of them");
  assert.is((await read(`/v1/orgs/${fx.elsewhere.id}/openapi/new-api`)).status, 404, "nor another organization's");
  await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/unpublish`, { token: fx.admin.token });
  assert.is((await read(`${specs}/new-api`)).status, 404, "an unpublished site's token reads nothing");
});

test("a published page's OpenAPI blocks show the operation from the registered public spec, by slug or by its source URL; a new version shows at once; a private one too (private: no public link), which the page's site token reads", async () => {
  files.set(
    '/shop/openapi.yaml',
    `openapi: 3.0.3
info: { title: Shop, version: '1' }
servers: [{ url: 'https://api.example.com/v1' }]
paths:
  /orders/{orderId}:
    parameters:
      - { name: orderId, in: path, required: true, schema: { type: string }, description: The order }
    get:
      summary: Read an order
      parameters:
        - { name: expand, in: query, schema: { type: boolean } }
      responses:
        '200':
          description: The order
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }
        '404': { description: No such order }
components:
  schemas:
    Order:
      type: object
      required: [id]
      properties:
        id: { type: string, example: ord_1 }
        lines: { type: array, items: { $ref: '#/components/schemas/Order' } }
`,
  );
  const before = new Date().toISOString();
  assert.is((await t.call('POST', specs, { token: fx.admin.token, body: { slug: 'shop', source: { url: `${sourceUrl}/shop/openapi.yaml` } } })).status, 201);
  await processed('shop', before);
  assert.is((await t.call('PATCH', `${specs}/shop`, { token: fx.admin.token, body: { visibility: 'public' } })).status, 200);
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Shop API' } })).body;
  const readme = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages[0];
  const markdown = `{% openapi-operation spec="shop" path="/orders/{orderId}" method="get" %}\n{% endopenapi-operation %}\n\n{% openapi src="${sourceUrl}/shop/openapi.yaml" path="/orders/{orderId}" method="get" %}\n{% endopenapi %}\n`;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'API' } })).body;
  assert.is(
    (
      await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        token: fx.admin.token,
        body: { changes: [{ operation: 'update_page', page: readme.id, document: { markdown } }] },
      })
    ).status,
    200,
  );
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Shop docs', spaces: [space.id] } })).body;
  const published = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).body;
  const page = async () => (await (await fetch(published.urls.published)).text()) as string;

  const shown = await page();
  const sections = shown.match(/<section class="openapi"[^>]*>[\s\S]*?<\/section>/g) ?? [];
  assert.is(sections.length, 2, 'both blocks drawn: by slug and by source URL');
  const [first] = sections;
  assert.match(first!, '<p class="openapi-title"><strong>Read an order</strong></p>');
  assert.match(first!, '<span class="method method-get">GET</span> <code>https://api.example.com/v1/orders/{orderId}</code>');
  assert.match(first!, /<caption>Path parameters<\/caption>.*<code>orderId<\/code><span class="required"> required<\/span><\/td><td>string<\/td><td>The order<\/td>/);
  assert.match(first!, /<caption>Query parameters<\/caption>.*<code>expand<\/code><\/td><td>boolean<\/td>/);
  assert.match(
    first!,
    /<details class="openapi-response" open><summary><code>200<\/code> The order<\/summary><ul class="schema"><li><code>id<\/code> <span class="type">string<\/span><span class="required"> required<\/span><\/li><li><code>lines<\/code> <span class="type">object\[\]<\/span><\/li><\/ul>/,
  );
  assert.match(first!, /"id": "ord_1"/, "an example built from the schema's own examples, the cycle through lines cut");
  assert.match(first!, /<details class="openapi-response"><summary><code>404<\/code> No such order<\/summary><\/details>/);

  files.set('/shop/openapi.yaml', (files.get('/shop/openapi.yaml') as string).replace('Read an order', 'Fetch one order'));
  const again = new Date().toISOString();
  assert.is((await t.call('PUT', `${specs}/shop`, { token: fx.admin.token, body: { source: { url: `${sourceUrl}/shop/openapi.yaml` } } })).status, 200);
  await processed('shop', again);
  assert.is(((await page()).match(/<strong>Fetch one order<\/strong>/g) ?? []).length, 2, 'the new version renders the page again');

  assert.is((await t.call('PATCH', `${specs}/shop`, { token: fx.admin.token, body: { visibility: 'private' } })).status, 200);
  assert.is(((await page()).match(/<strong>Fetch one order<\/strong>/g) ?? []).length, 2, 'private only means no public link: the page that names the spec still draws it');

  // GitBook's renderer reads the spec each block names with the site token of the page.
  const siteToken = (await t.call('POST', '/v1/urls/published', { body: { url: published.urls.published } })).body.apiToken as string;
  const asSite = (path: string) => t.call('GET', path, { headers: { authorization: `Bearer ${siteToken}` } });
  const content = await asSite(`${specs}/shop/versions/latest/content`);
  assert.is(content.status, 200, JSON.stringify(content.body));
  assert.match(JSON.stringify(content.body), 'Fetch one order');
  assert.match(content.body.url, /\/v1\/orgs\/.*\/openapi\/shop\/versions\/.*\/content$/, "the API address, not the private spec's source URL");
  assert.equal(content.body.urls, { source: content.body.url, public: null });
  for (const path of ['', '/versions', '/versions/latest', `/versions/${content.body.url.split('/versions/')[1].split('/')[0]}/content`]) {
    assert.is((await asSite(`${specs}/shop${path}`)).status, 404, `only the latest content of a private spec: not ${path || 'the spec'}`);
  }
});

test("getComputedDocument: info, one tag's operations and the models of a processed spec, keys from the seed; a site token sees public specs only; other sources and unknown tags are refused", async () => {
  const text = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Catalog', version: '1', description: 'The catalog API.\n\nRead-only.' },
    tags: [{ name: 'items', description: 'Items on sale.' }],
    paths: {
      '/items': { get: { tags: ['items'], responses: { 200: { description: 'ok' } } }, post: { tags: ['items'], responses: { 201: { description: 'made' } } } },
      '/health': { get: { tags: ['ops'], responses: { 200: { description: 'ok' } } } },
    },
    components: { schemas: { Item: { type: 'object', properties: { id: { type: 'string' } } }, Price: { type: 'number' } } },
  });
  const before = new Date().toISOString();
  assert.is((await t.call('POST', specs, { token: fx.admin.token, body: { slug: 'catalog', source: { text } } })).status, 201);
  await processed('catalog', before);
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Catalog docs' } })).body;
  const computed = `/v1/spaces/${space.id}/content/computed/document`;
  const source = (props: Record<string, string>) => ({ type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'catalog' } } }, props });
  const compute = (props: Record<string, string>, token = fx.reader.token, seed = 'one') => t.call('POST', computed, { token, body: { source: source(props), seed } });

  const info = await compute({ doc: 'info' });
  assert.is(info.status, 200, JSON.stringify(info.body));
  assert.equal(
    info.body.nodes.map((node: { type: string }) => node.type),
    ['paragraph', 'paragraph'],
  );
  assert.match(JSON.stringify(info.body), 'Read-only.');
  const operations = await compute({ doc: 'operations', page: 'items' });
  assert.equal(
    operations.body.nodes.map((node: { type: string; data: { path?: string; method?: string } }) => [node.type, node.data.path, node.data.method]),
    [
      ['paragraph', undefined, undefined],
      ['openapi-operation', '/items', 'get'],
      ['openapi-operation', '/items', 'post'],
    ],
  );
  assert.equal(operations.body.nodes[1].data.ref, { kind: 'openapi', spec: 'catalog' });
  assert.equal((await compute({ doc: 'operations', page: 'items' })).body, operations.body, 'the same seed, the same keys');
  assert.is.not((await compute({ doc: 'operations', page: 'items' }, fx.reader.token, 'two')).body.nodes[1].key, operations.body.nodes[1].key);
  const models = await compute({ doc: 'models' });
  assert.equal(models.body.nodes[0].data, { ref: { kind: 'openapi', spec: 'catalog' }, schemas: ['Item', 'Price'], grouped: true });

  assertErrorIs(await compute({ doc: 'operations', page: 'nothing' }), 404, 'OpenAPI specification "catalog" has no operation tagged "nothing"');
  assertErrorIs(
    await t.call('POST', computed, { token: fx.reader.token, body: { source: { type: 'builtin:translation', props: { space: 'x', document: 'y' } }, seed: 's' } }),
    400,
    'Computed documents from "builtin:translation" sources are not supported: Quire computes "builtin:openapi" ones',
  );
  assertErrorIs(await compute({ doc: 'everything' }), 400, '"source.props.doc" must be "info", "models" or "operations" (with "page": a tag)');

  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Catalog', spaces: [space.id] } })).body;
  const published = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).body;
  const siteToken = (await t.call('POST', '/v1/urls/published', { body: { url: published.urls.published } })).body.apiToken as string;
  const asSite = (props: Record<string, string>) => t.call('POST', computed, { headers: { authorization: `Bearer ${siteToken}` }, body: { source: source(props), seed: 'one' } });
  assertErrorIs(await asSite({ doc: 'models' }), 404, 'OpenAPI specification "catalog" not found');
  assert.is((await t.call('PATCH', `${specs}/catalog`, { token: fx.admin.token, body: { visibility: 'public' } })).status, 200);
  assert.equal((await asSite({ doc: 'models' })).body, models.body);
});

test('getComputedRevision: a page per tag and the models, each carrying the computed source its document comes from', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Catalog reference' } })).body;
  const computed = `/v1/spaces/${space.id}/content/computed/revision`;
  const dependencies = { spec: { ref: { kind: 'openapi', spec: 'catalog' } } };
  const revision = await t.call('POST', computed, { token: fx.reader.token, body: { source: { type: 'builtin:openapi', dependencies, props: { models: true } }, seed: 'rev' } });
  assert.is(revision.status, 200, JSON.stringify(revision.body));
  assert.equal(
    revision.body.pages.map((page: { title: string; slug: string }) => [page.title, page.slug]),
    [
      ['items', 'items'],
      ['ops', 'ops'],
      ['Models', 'models'],
    ],
    'the declared tag first, then the others operations name, then the models',
  );
  // A tag's page shows what getComputedDocument computes for that tag (its seed: the revision's and the title).
  const document = await t.call('POST', `/v1/spaces/${space.id}/content/computed/document`, {
    token: fx.reader.token,
    body: { source: { type: 'builtin:openapi', dependencies, props: { doc: 'operations', page: 'items' } }, seed: 'rev:items' },
  });
  assert.equal(revision.body.pages[0].document, document.body);
  const again = await t.call('POST', computed, { token: fx.reader.token, body: { source: { type: 'builtin:openapi', dependencies, props: { models: true } }, seed: 'rev' } });
  assert.equal(again.body, revision.body, 'the same seed, the same revision');
  assertErrorIs(
    await t.call('POST', computed, { token: fx.reader.token, body: { source: { type: 'builtin:openapi', dependencies, props: { grouping: 'by-operation' } }, seed: 's' } }),
    400,
    '"source.props.grouping": Quire groups computed OpenAPI pages by tag ("by-tag")',
  );
});

test('a specification nested past 200 levels is a PARSE_ERROR naming the limit, not a stack overflow', async () => {
  const deep = `{"openapi":"3.0.0","info":{"title":"Deep","version":"1"},"paths":{},"x-deep":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
  const since = new Date().toISOString();
  assert.is((await t.call('PUT', `${specs}/deep`, { token: fx.creator.token, body: { source: { text: deep } } })).status, 201);
  const done = await processed('deep', since);
  assert.is(done.lastProcessErrorCode, 'PARSE_ERROR');
  assert.equal(done.lastProcessedErrors, [{ message: 'https://openapi.invalid/openapi.json nests objects and arrays deeper than the limit of 200 levels', code: 'too_deep' }]);
});

test('a specification breaking its schema 60 times: the first 50 problems are kept, and the count says 60', async () => {
  const paths = Array.from({ length: 60 }, (_, index) => `  /p${index}:\n    get: {}\n`).join('');
  const since = new Date().toISOString();
  assert.is(
    (await t.call('PUT', `${specs}/broken-many`, { token: fx.creator.token, body: { source: { text: `openapi: 3.0.3\ninfo: { title: Many, version: '1' }\npaths:\n${paths}` } } })).status,
    201,
  );
  const done = await processed('broken-many', since);
  assert.is(done.lastProcessErrorCode, 'PARSE_ERROR');
  assert.equal([done.lastProcessedErrors.length, done.lastProcessedErrorCount], [50, 60]);
  assert.match(done.lastProcessedErrors[0].message, "must have required property 'responses'");
});

test('a slow server: FETCH_TIMEOUT; a 404: FETCH_ERROR without retries; no version', async () => {
  files.set('/slow.yaml', 'slow');
  files.set('/gone.yaml', 404);
  let since = new Date().toISOString();
  await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'slow', source: { url: `${sourceUrl}/slow.yaml` } } });
  const slow = await until('the timeout to be recorded', async () => ((await get('slow')).body.lastProcessErrorCode ? (await get('slow')).body : undefined));
  assert.is(slow.lastProcessErrorCode, 'FETCH_TIMEOUT');
  assert.equal(slow.lastProcessedErrors, [{ message: `Fetching ${sourceUrl}/slow.yaml took more than 400 ms`, code: 'timeout' }]);
  const finished = await processed('slow', since);
  assert.is(finished.lastVersion, undefined);
  assert.is(hits.get('/slow.yaml'), 3, 'a timeout is transient: three attempts');
  assertErrorIs(await t.call('GET', `${specs}/slow/versions/latest`, { token: fx.reader.token }), 404, 'OpenAPI specification "slow" has no version yet (processingState: complete)');

  since = new Date().toISOString();
  await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'gone', source: { url: `${sourceUrl}/gone.yaml` } } });
  const gone = await processed('gone', since);
  assert.is(gone.lastProcessErrorCode, 'FETCH_ERROR');
  assert.equal(gone.lastProcessedErrors, [{ message: `${sourceUrl}/gone.yaml answered HTTP 404`, code: 'status' }]);
  assert.is(hits.get('/gone.yaml'), 1, 'a 404 is permanent: one attempt');
});

test('without QUIRE_ALLOW_PRIVATE_FETCH a loopback source is refused', async () => {
  configureIntegrations({ allowPrivateFetch: false });
  try {
    const since = new Date().toISOString();
    await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'private', source: { url: `${sourceUrl}/pets/openapi.yaml` } } });
    const refused = await processed('private', since);
    assert.is(refused.lastProcessErrorCode, 'FETCH_ERROR');
    assert.equal(refused.lastProcessedErrors, [
      { message: `${new URL(sourceUrl).host} is not a public address (loopback, private, link-local or otherwise non-public): refused (QUIRE_ALLOW_PRIVATE_FETCH=1 lifts this)`, code: 'address' },
    ]);
  } finally {
    configureIntegrations({ allowPrivateFetch: true });
  }
});

test('referenced files: fetched through the guard; a missing one is a FETCH_ERROR naming it; local files are never read', async () => {
  files.set('/refs/openapi.yaml', petsV1.replace('schemas.yaml#/Pet', 'missing.yaml#/Pet'));
  let since = new Date().toISOString();
  await t.call('PUT', `${specs}/refs`, { token: fx.creator.token, body: { source: { url: `${sourceUrl}/refs/openapi.yaml` } } });
  const missing = await processed('refs', since);
  assert.is(missing.lastProcessErrorCode, 'FETCH_ERROR');
  assert.equal(missing.lastProcessedErrors, [{ message: `${sourceUrl}/refs/missing.yaml answered HTTP 404`, code: 'status' }]);

  for (const [ref, message, code] of [
    ['file:///etc/passwd', 'Unable to resolve $ref pointer "file:///etc/passwd"', 'invalid'],
    ['other.yaml#/Pet', "An uploaded specification can't refer to other files ($ref to https://openapi.invalid/other.yaml)", 'external_ref'],
  ] as const) {
    since = new Date().toISOString();
    await t.call('PUT', `${specs}/refs`, { token: fx.creator.token, body: { source: { text: petsV1.replace('schemas.yaml#/Pet', ref) } } });
    const refused = await processed('refs', since);
    assert.is(refused.lastProcessErrorCode, 'PARSE_ERROR');
    assert.equal(refused.lastProcessedErrors, [{ message, code }]);
    assert.is(refused.lastVersion, undefined);
  }
});

test('validation, conflicts, visibility, delete and roles', async () => {
  assertErrorIs(
    await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'bad slug', source: { text: 'x' } } }),
    400,
    'Invalid request body: "slug" must match pattern "^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$"',
  );
  assertErrorIs(
    await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'a'.repeat(101), source: { text: 'x' } } }),
    400,
    'Invalid request body: "slug" must NOT have more than 100 characters',
  );
  assertErrorIs(
    await t.call('POST', specs, { token: fx.creator.token, body: { slug: 'pets', source: { text: 'x' } } }),
    409,
    `An OpenAPI specification with the slug "pets" already exists in organization ${fx.org.id}`,
  );
  assertErrorIs(await t.call('POST', specs, { token: fx.reader.token, body: { slug: 'mine', source: { text: 'x' } } }), 403, messages.needsOrgRole('create', 'read'));
  assertErrorIs(await t.call('PATCH', `${specs}/pets`, { token: fx.creator.token, body: { visibility: 'public' } }), 403, messages.needsOrgRole('admin', 'create'));
  const patched = await t.call('PATCH', `${specs}/pets`, { token: fx.admin.token, body: { visibility: 'public' } });
  assert.is(patched.body.visibility, 'public');
  assertErrorIs(await get('nothing'), 404, 'OpenAPI specification "nothing" not found');
  assertErrorIs(await t.call('GET', specs, { token: fx.outsider.token }), 404, messages.notFoundFor(specs));
  const version = (await get('pets')).body.lastVersion;
  assert.is((await t.call('DELETE', `${specs}/pets`, { token: fx.admin.token })).status, 204);
  assertErrorIs(await get('pets'), 404, 'OpenAPI specification "pets" not found');
  assertErrorIs(await t.call('GET', `${specs}/pets/versions/${version}`, { token: fx.reader.token }), 404, 'OpenAPI specification "pets" not found');
});

test.run();
