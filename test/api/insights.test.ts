import puppeteer, { type Browser } from 'puppeteer';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath } from '../../domain/pdf/browser.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import { signedInBrowser } from '../helpers/formBrowser.js';
import { givePasswords } from '../helpers/processes.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

// Site insights: events reported through the API (trackEventsInSiteById, submitSiteAgentFeedback)
// and by Quire's own sites (their script's beacon, their search and question pages), counted per
// day without identifying anyone, read back through aggregateSiteEvents and on the app's site page.
const test = suite('site insights');
let t: TestServer;
let fx: OrganizationFixture;
let browser: Browser | undefined;
let site: { id: string; urls: { published: string } };
let spaceId = '';
let pageId = '';
const password = 'correct horse battery staple';
const sites = siteMaker(() => ({ t, fx }));

withOrganization(test, (setup) => ({ t, fx } = setup));
test.before(async () => {
  const space = await sites.space('Guide');
  spaceId = space.id;
  site = await sites.publishedSite('Guide site', [space.id]);
  pageId = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages.find((page: { path: string }) => page.path === 'quick-start').id;
  await givePasswords(t.dataDir, [fx.admin], password);
});
test.after(async () => {
  await browser?.close();
});

const base = () => `/v1/orgs/${fx.org.id}/sites/${site.id}`;
const location = (path = 'quick-start') => ({ url: `${site.urls.published}${path}`, siteSection: null, siteSpace: null, siteShareKey: null, space: spaceId, revision: null, page: pageId });
const session = (referrer: string | null = null) => ({ visitorId: 'v', sessionId: 's', cookies: {}, userAgent: 'test', language: 'en', referrer });
const aggregate = async (body: Record<string, unknown>) => {
  const answered = await t.call('POST', `${base()}/insights/events/aggregate`, { token: fx.reader.token, body });
  assert.is(answered.status, 200, JSON.stringify(answered.body));
  return Object.fromEntries((answered.body.columns as Array<{ column: string; values: unknown[] }>).map((column) => [column.column, column.values]));
};

test('events reported through the API are counted per day and read back by aggregation', async () => {
  const tracked = await t.call('POST', `${base()}/insights/events`, {
    token: fx.reader.token,
    body: {
      events: [
        { type: 'page_view', session: session('https://news.example.com/article?id=7'), location: location() },
        { type: 'page_view', session: session(), location: location() },
        { type: 'search_type_query', session: session(), location: location(), query: '  Install  Docker ' },
        { type: 'page_post_feedback', session: session(), location: location(), feedback: { rating: 'good' } },
      ],
    },
  });
  assert.is(tracked.status, 204);
  const byType = await aggregate({ range: 'last7Days', groupBy: [{ column: 'eventType' }] });
  // Most counted first, ties in the order of their values.
  assert.equal(byType, { eventType: ['page_view', 'page_post_feedback', 'search_type_query'], eventsCount: [2, 1, 1] });

  const today = `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
  const views = await aggregate({
    range: 'last30Days',
    select: [{ column: 'datetime', interval: 'day' }, { column: 'page' }, { column: 'eventsCount' }],
    groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'page' }],
    where: [{ column: 'eventType', values: ['page_view'] }],
  });
  assert.equal(views, { datetime: [today], page: [{ page: pageId, space: spaceId }], eventsCount: [2] });
  const referrers = await aggregate({ range: 'last7Days', groupBy: [{ column: 'referrerDomain' }], where: [{ column: 'eventType', values: ['page_view'] }] });
  assert.equal(referrers.referrerDomain!.sort(), ['', 'news.example.com'], 'a referrer is kept as its host alone');
  const searches = await aggregate({ range: 'last7Days', groupBy: [{ column: 'eventSearchQuery' }], where: [{ column: 'eventType', values: ['search_type_query'] }] });
  assert.equal(searches.eventSearchQuery, ['install docker']);

  assertErrorIs(
    await t.call('POST', `${base()}/insights/events/aggregate`, { token: fx.reader.token, body: { range: 'last7Days', groupBy: [{ column: 'visitorsCount' }] } }),
    400,
    '"groupBy[0]": "visitorsCount" is not kept: Quire counts events without identifying or describing visitors (docs/insights.md)',
  );
  assertErrorIs(
    await t.call('POST', `${base()}/insights/events/aggregate`, { token: fx.reader.token, body: { range: 'last7Days', groupBy: [{ column: 'datetime', interval: 'hour' }] } }),
    400,
    '"groupBy[0]": Quire counts events per day; "datetime" takes the interval day, week or month',
  );
  const old = new Date(Date.now() - 3_600_000).toISOString();
  assertErrorIs(
    await t.call('POST', `${base()}/insights/events`, { token: fx.reader.token, body: { events: [{ type: 'page_view', session: session(), location: location(), timestamp: old }] } }),
    400,
    '"events[0].timestamp" must be within 5 minutes of now',
  );
  assertErrorIs(await t.call('POST', `${base()}/insights/events`, { token: fx.guest.token, body: { events: [] } }), 403, /This operation needs the read role.*/);
});

test('Quire’s sites count reads by their script, searches and questions on the server; Do Not Track is honoured', async () => {
  const before = (await aggregate({ range: 'last7Days', groupBy: [{ column: 'eventType' }] })) as { eventType: string[]; eventsCount: number[] };
  const viewsBefore = before.eventsCount[before.eventType.indexOf('page_view')] ?? 0;
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  const page = await browser.newPage();
  await page.goto(`${site.urls.published}quick-start`, { waitUntil: 'networkidle0' });
  assert.is(await page.evaluate(() => document.body.dataset.page), pageId, 'the page says which page it is');
  // A reader who asks not to be tracked: their beacon and their search count nothing.
  const beacon = (headers: Record<string, string> = {}) =>
    fetch(`${site.urls.published}~insights`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ type: 'page_view', space: spaceId, page: pageId, path: '/x' }),
    });
  assert.is((await beacon({ dnt: '1' })).status, 204);
  assert.is((await beacon({ 'sec-gpc': '1' })).status, 204);
  assert.is((await fetch(`${site.urls.published}~search?q=kubernetes+helm`, { headers: { dnt: '1' } })).status, 200);
  assert.is((await fetch(`${site.urls.published}~search?q=kubernetes+helm`)).status, 200);
  assert.is((await fetch(`${site.urls.published}~ask?q=${encodeURIComponent('Where do I start?')}`)).status, 200);
  assert.is(
    (await beacon()).status === 204 &&
      (await fetch(`${site.urls.published}~insights`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"delete_everything"}' })).status,
    400,
  );

  const after = (await aggregate({ range: 'last7Days', groupBy: [{ column: 'eventType' }] })) as { eventType: string[]; eventsCount: number[] };
  assert.is(after.eventsCount[after.eventType.indexOf('page_view')], viewsBefore + 2, 'the page read in Chromium and the beacon sent without Do Not Track');
  const searches = await aggregate({
    range: 'last7Days',
    groupBy: [{ column: 'eventSearchQuery' }, { column: 'eventType' }],
    where: [{ column: 'eventType', values: ['search_type_query', 'ask_question'] }],
  });
  assert.ok((searches.eventSearchQuery as string[]).includes('kubernetes helm'));
  assert.ok((searches.eventSearchQuery as string[]).includes('where do i start?'), JSON.stringify(searches));
  assert.is((searches.eventsCount as number[])[(searches.eventSearchQuery as string[]).indexOf('kubernetes helm')], 1, 'the Do Not Track search is not counted');
});

test('an agent’s feedback and the searches that found nothing reach the site’s page in the app', async () => {
  assert.is(
    (
      await t.call('POST', `${base()}/agent-feedback`, {
        token: fx.reader.token,
        body: { feedback: 'The install page never says which Node version is needed.', url: `${site.urls.published}quick-start`, spaceId, pageId, source: 'mcp' },
      })
    ).status,
    204,
  );
  const report = await t.call('POST', `${base()}/agents/feedback`, {
    token: fx.reader.token,
    body: {
      reportedBy: { model: 'some-model', userAgent: 'agent/1.0' },
      subject: { kind: 'mcp-tool', toolName: 'searchDocumentation' },
      feedback: {
        category: 'could-not-accomplish',
        severity: 'high',
        summary: 'No page explains rate limits.',
        workaround: 'Read the response headers.',
        metrics: { callCount: 3, successCount: 0, retryCount: 2 },
      },
    },
  });
  assert.is(report.status, 201, JSON.stringify(report.body));
  assert.ok(report.body.id && report.body.result);
  const app = await signedInBrowser(t.url, fx.admin.email, password);
  const sitePage = await app.get(`/app/o/${fx.org.id}/sites/${site.id}`);
  assert.is(sitePage.status, 200);
  const readers = sitePage.html.slice(sitePage.html.indexOf('id="insights-title"'));
  assert.match(readers, /<caption>Searches and questions that found nothing<\/caption>.*<td>kubernetes helm<\/td><td>1<\/td>/s);
  assert.match(readers, /<caption>Feedback from AI agents<\/caption>.*The install page never says which Node version is needed\./s);
  assert.match(readers, /<caption>Where readers came from<\/caption>.*<td>news\.example\.com<\/td>/s);
  assert.match(readers, /\[could-not-accomplish, high\] MCP tool searchDocumentation: No page explains rate limits\. \(3 calls, 0 succeeded, 2 retried\)/);
});

test('visitor segments: readers grouped by the claims the adaptive schema declares, counted without keeping them', async () => {
  const other = await sites.publishedSite('Segmented', [spaceId]);
  const path = `/v1/orgs/${fx.org.id}/sites/${other.id}`;
  const claim = (type: string) => ({ type, description: `A ${type} claim` });
  const jsonSchema = {
    type: 'object',
    properties: { plan: claim('string'), unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { beta: claim('boolean') }, additionalProperties: false } },
    additionalProperties: false,
  };
  const put = await t.call('PUT', `${path}/adaptive-schema`, { token: fx.admin.token, body: { jsonSchema } });
  assert.is(put.status, 200, JSON.stringify(put.body));
  const seen = (visitorId: string, sessionId: string, visitorAuthClaims?: Record<string, unknown>) => ({
    type: 'page_view',
    session: { visitorId, sessionId, cookies: {}, userAgent: 'test', language: 'en', referrer: null, ...(visitorAuthClaims ? { visitorAuthClaims } : {}) },
    location: { ...location(), url: `${other.urls.published}quick-start` },
  });
  const tracked = await t.call('POST', `${path}/insights/events`, {
    token: fx.reader.token,
    body: {
      events: [
        // An email is no declared claim: it never makes a segment, nor is it kept.
        seen('ann', 'ann-1', { plan: 'pro', email: 'ann@example.com' }),
        seen('ann', 'ann-1', { plan: 'pro', email: 'ann@example.com' }),
        seen('ann', 'ann-2', { plan: 'pro', email: 'ann@example.com' }),
        seen('bob', 'bob-1', { plan: 'pro', unsigned: { beta: true } }),
        seen('cy', 'cy-1'),
      ],
    },
  });
  assert.is(tracked.status, 204, JSON.stringify(tracked.body));
  // Quire's own script counts a reader too: with no claims, among all readers.
  const beacon = await fetch(`${other.urls.published}~insights`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'page_view', path: new URL(other.urls.published).pathname, space: spaceId, page: pageId }),
  });
  assert.is(beacon.status, 204);

  const listed = await t.call('GET', `${path}/insights/visitor-segments`, { token: fx.reader.token });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  assert.equal(listed.body.items, [
    { title: 'plan: pro', claims: { plan: 'pro' }, events: 3, visitors: 1, sessions: 2 },
    { title: 'All readers', claims: {}, events: 2, visitors: 2, sessions: 2 },
    { title: 'plan: pro, unsigned.beta: true', claims: { plan: 'pro', unsigned: { beta: true } }, events: 1, visitors: 1, sessions: 1 },
  ]);
  const stored = await t.server.db.all<{ segment: string; visitors: Buffer }>('SELECT segment, visitors FROM site_segment_days WHERE site_id = ?', [other.id]);
  assert.not.match(JSON.stringify(stored.map((row) => row.segment)), /ann/, 'no email, no id');
  assert.ok(
    stored.every((row) => row.visitors.length === 256),
    'a sketch of 256 registers, whatever the readers',
  );
});

test.run();
