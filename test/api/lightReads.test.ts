import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { startTestServer, type Response, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

// The light reads (api/lightReads.ts) answer the hottest GETs below Koa. These tests hold them to
// the answers Koa gives: a second server over the same data, with QUIRE_LIGHT_READS=off, answers
// every request through Koa.
const test = suite('light reads');
let light: TestServer;
let koa: TestServer;
let fx: OrganizationFixture;
let spaceId: string;
let pageId: string;

test.before(
  reportingErrors(async () => {
    light = await startTestServer({ publicUrl: 'http://docs.example.test', rateLimit: { requests: 1000, windowMs: 60_000 } });
    fx = await organizationWithMembers(light);
    const space = await light.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Handbook' } });
    spaceId = space.body.id;
    const changeRequest = await light.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.admin.token, body: { subject: 'First pages' } });
    const base = `/v1/spaces/${spaceId}/change-requests/${changeRequest.body.id}`;
    const changes = [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: '# Welcome\n\nRead [the guide](https://example.com/guide) *first*.\n' } },
      { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nSteps.\n' } },
    ];
    assert.is((await light.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes } })).status, 200);
    assert.is((await light.call('POST', `${base}/merge`, { token: fx.admin.token })).status, 200);
    const pages = (await light.call('GET', `/v1/spaces/${spaceId}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; title: string }>;
    pageId = pages.find((page) => page.title === 'Welcome')!.id;
    koa = await startTestServer({ lightReads: false, publicUrl: 'http://docs.example.test', rateLimit: { requests: 1000, windowMs: 60_000 } }, { dataDir: light.dataDir });
  }),
);
test.after(async () => {
  await koa?.close({ keepData: true });
  await light?.close();
});

/** Status, body and headers, less those that differ between any two answers (date, request id, the rate-limit count). */
function comparable(response: Response) {
  const headers = [...response.headers].filter(([name]) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(name));
  return { status: response.status, body: response.body, headers };
}

async function lightCounts(): Promise<{ answered: number; passedOn: number }> {
  const text = await (await fetch(`${light.url}/metrics`)).text();
  const count = (result: string) => Number(new RegExp(`^quire_light_reads_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { answered: count('answered'), passedOn: count('passed on') };
}

test('the light routes answer as Koa does, headers and bytes, and are counted as answered below it', async () => {
  const reads = [
    `/v1/orgs/${fx.org.id}`,
    `/v1/spaces/${spaceId}`,
    `/v1/spaces/${spaceId}/content`,
    `/v1/spaces/${spaceId}/content/pages`,
    `/v1/spaces/${spaceId}/content/page/${pageId}`,
    `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`,
    `/v1/spaces/${spaceId}/content/path/guide`,
    `/v1/spaces/${spaceId}/search?query=welc`,
    `/v1/orgs/${fx.org.id}/search?query=welcome`,
    `/v1/orgs/${fx.org.id}/search?query=welcome&limit=1`,
  ];
  for (const person of [fx.admin, fx.reader, fx.guest]) {
    for (const path of reads) {
      const before = await lightCounts();
      const answer = await light.call('GET', path, { token: person.token });
      const after = await lightCounts();
      const expected = await koa.call('GET', path, { token: person.token });
      assert.equal(comparable(answer), comparable(expected), `${path} for ${person.email}`);
      if (answer.status === 200) assert.equal(after, { ...before, answered: before.answered + 1 }, `${path} answered below Koa`);
    }
  }
  const page = await light.call('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, { token: fx.reader.token });
  assert.is(page.status, 200);
  assert.is(page.body.title, 'Welcome');
  assert.is(page.headers.get('cache-control'), 'no-store');
  assert.is(page.headers.get('x-content-type-options'), 'nosniff');
  assert.is(page.headers.get('x-ratelimit-limit'), '1000');
});

test('errors, bad queries and callers without access are passed on to Koa, which answers them as always', async () => {
  const cases: Array<[string, string | undefined, number, string | RegExp]> = [
    [`/v1/spaces/${spaceId}/content/page/nope`, fx.admin.token, 404, /^Page nope not found in revision [0-9a-f]{40}$/],
    [`/v1/spaces/${spaceId}/content/page/${pageId}?format=nonsense`, fx.admin.token, 400, 'Invalid query parameter: "format" must be one of "document", "markdown"'],
    [`/v1/spaces/${spaceId}/content/page/${pageId}?unknown=1`, fx.admin.token, 400, /^Invalid query parameter: "unknown" is not an accepted field$/],
    [`/v1/spaces/${spaceId}/content`, fx.outsider.token, 404, `Space ${spaceId} not found`],
    [`/v1/orgs/${fx.org.id}`, fx.outsider.token, 404, `Organization ${fx.org.id} not found`],
    [`/v1/orgs/${fx.org.id}`, 'not-a-token', 401, 'The bearer token is not valid'],
    [`/v1/orgs/${fx.org.id}/search`, fx.admin.token, 400, 'Invalid query parameter: "query" is required'],
    [`/v1/spaces/${spaceId}/search?query=a&limit=0.5`, fx.admin.token, 400, /Invalid query parameter: "limit" .+/],
    [`/v1/spaces/${spaceId}/content/page/%E0%A4%A`, fx.admin.token, 400, 'The path is not valid percent-encoded UTF-8'],
  ];
  for (const [path, token, status, message] of cases) {
    const before = await lightCounts();
    const answer = await light.call('GET', path, { token });
    assertErrorIs(answer, status, message, path);
    assert.equal(comparable(answer), comparable(await koa.call('GET', path, { token })), path);
    assert.is((await lightCounts()).answered, before.answered, `${path}: not answered below Koa`);
  }
});

test('a request passed on to Koa is counted once against the rate limit', async () => {
  const remaining: number[] = [];
  for (const path of [`/v1/orgs/${fx.org.id}`, `/v1/spaces/${spaceId}/content/page/nope`, `/v1/orgs/${fx.org.id}`, '/v1/user', `/v1/spaces/${spaceId}/content`]) {
    remaining.push(Number((await light.call('GET', path, { token: fx.editor.token })).headers.get('x-ratelimit-remaining')));
  }
  const first = remaining[0]!;
  assert.equal(remaining, [first, first - 1, first - 2, first - 3, first - 4]);
});

test("only the light routes spelled /v1/ are counted: another GET with a token, or /V1/, is simply Koa's", async () => {
  const before = await lightCounts();
  assert.is((await light.call('GET', '/v1/user', { token: fx.reader.token })).status, 200);
  // Not through `call`, which checks answers against upstream's paths (spelled /v1/).
  const shout = async (server: TestServer) => {
    const response = await fetch(`${server.url}/V1/orgs/${fx.org.id}`, { headers: { authorization: `Bearer ${fx.reader.token}` } });
    return { status: response.status, body: await response.json(), headers: response.headers } as Response;
  };
  const shouted = await shout(light);
  assert.equal(comparable(shouted), comparable(await shout(koa)));
  assert.is(shouted.body.id, fx.org.id);
  assert.equal(await lightCounts(), before);
});

test('a site token (a JWT) is never read below Koa: its routes answer it as before', async () => {
  const before = await lightCounts();
  const answer = await light.call('GET', `/v1/orgs/${fx.org.id}`, { headers: { authorization: 'Bearer aaa.bbb.ccc' } });
  assert.is(answer.status >= 400, true);
  assert.equal(comparable(answer), comparable(await koa.call('GET', `/v1/orgs/${fx.org.id}`, { headers: { authorization: 'Bearer aaa.bbb.ccc' } })));
  assert.is((await lightCounts()).answered, before.answered);
});

test('a write is seen by the next light read: the organization answered after its title changed', async () => {
  assert.is((await light.call('GET', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token })).body.title, fx.org.title);
  assert.is((await light.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { title: 'Renamed Docs' } })).status, 200);
  assert.is((await light.call('GET', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token })).body.title, 'Renamed Docs');
  assert.is((await light.call('GET', `/v1/orgs/${fx.org.id}`, { token: fx.reader.token })).body.title, 'Renamed Docs');
});

test.run();
