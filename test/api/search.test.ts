import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('search');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));

const newSpace = async (title: string, template = 'getting-started') =>
  (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: template } } })).body;

test('space search finds pages by their words, grouped by page with sections and ancestors', async () => {
  const space = await newSpace('Searchable');
  const found = await t.call('GET', `/v1/spaces/${space.id}/search?query=${encodeURIComponent('setting file')}`, { token: fx.reader.token });
  assert.is(found.status, 200);
  assert.is(found.body.items[0].title, 'Configuration');
  assert.equal(found.body.items[0].ancestors, [{ title: 'Quick start' }]);
  assert.ok(found.body.items[0].sections[0].body.includes('setting'));
  const prefix = await t.call('GET', `/v1/spaces/${space.id}/search?query=configur`, { token: fx.reader.token });
  assert.ok(
    prefix.body.items.some((item: { title: string }) => item.title === 'Configuration'),
    'the last word matches as a prefix',
  );
  const heading = await t.call('GET', `/v1/spaces/${space.id}/search?query=start`, { token: fx.reader.token });
  const ranked = heading.body.items as Array<{ score: number; rank: number; sections: Array<{ score: number }> }>;
  assert.equal(
    ranked.map((item) => item.rank),
    ranked.map((_, index) => index + 1),
    'one-based ranks, in order',
  );
  assert.ok(
    ranked.every((item, index) => item.score >= 0 && (index === 0 || item.score <= ranked[index - 1]!.score)),
    `scores fall with the rank: ${ranked.map((item) => item.score).join(', ')}`,
  );
  assert.ok(
    ranked.every((item) => item.score === Math.max(...item.sections.map((section) => section.score))),
    'a page scores as its best section',
  );
  const faq = heading.body.items.find((item: { title: string }) => item.title === 'FAQ');
  assert.is(faq.sections[0].path, 'faq#where-do-i-start');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/search?query=${encodeURIComponent('"AND OR NOT*')}`, { token: fx.reader.token })).status, 200, 'FTS syntax is only words');
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/search`, { token: fx.reader.token }), 400, 'Invalid query parameter: "query" is required');
  assertErrorIs(
    await t.call('GET', `/v1/spaces/${space.id}/search?query=${'x'.repeat(513)}`, { token: fx.reader.token }),
    400,
    'Invalid query parameter: "query" must NOT have more than 512 characters',
  );
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/search?query=x`, { token: fx.guest.token }), 404, `Space ${space.id} not found`);
});

test('the index follows the newest revision: new words are found, removed ones are not', async () => {
  const space = await newSpace('Changing');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/search?query=handbook`, { token: fx.reader.token })).body.count, 0);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/search?query=minutes`, { token: fx.reader.token })).body.count, 1, 'Quick start says "five minutes"');
  await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'knowledge-base' } });
  const added = await t.call('GET', `/v1/spaces/${space.id}/search?query=handbook`, { token: fx.reader.token });
  assert.is(added.body.count, 1, 'a word of the new revision is found: the Handbook page');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/search?query=minutes`, { token: fx.reader.token })).body.count, 0, 'a word no longer there is not');
});

test('organization search covers the spaces the caller reaches, and deleted spaces drop out', async () => {
  const visible = await newSpace('Visible team docs', 'knowledge-base');
  const hidden = await newSpace('Admins only', 'knowledge-base');
  await t.call('PATCH', `/v1/spaces/${hidden.id}`, { token: fx.admin.token, body: { defaultLevel: null } });
  const asReader = await t.call('GET', `/v1/orgs/${fx.org.id}/search?query=onboarding`, { token: fx.reader.token });
  assert.is(asReader.status, 200);
  const spaceIds = asReader.body.items.map((item: { id: string }) => item.id);
  assert.ok(spaceIds.includes(visible.id));
  assert.ok(!spaceIds.includes(hidden.id), 'a space the reader can’t reach is not searched');
  const asAdmin = await t.call('GET', `/v1/orgs/${fx.org.id}/search?query=onboarding`, { token: fx.admin.token });
  assert.ok(asAdmin.body.items.some((item: { id: string }) => item.id === hidden.id));
  await t.call('DELETE', `/v1/spaces/${visible.id}`, { token: fx.admin.token });
  const afterDelete = await t.call('GET', `/v1/orgs/${fx.org.id}/search?query=onboarding`, { token: fx.admin.token });
  assert.ok(!afterDelete.body.items.some((item: { id: string }) => item.id === visible.id), 'deleted spaces drop out');
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}/search?query=x`, { token: fx.outsider.token }), 404, `Organization ${fx.org.id} not found`);
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}/search`, { token: fx.reader.token }), 400, 'Invalid query parameter: "query" is required');
});

test('organization search answers `limit` pages of the ranking at a time, grouped by space, ranks kept across pages', async () => {
  await newSpace('Ranked one', 'knowledge-base');
  await newSpace('Ranked two', 'knowledge-base');
  const url = (extra: string) => `/v1/orgs/${fx.org.id}/search?query=onboarding${extra}`;
  type Found = { items: Array<{ id: string; score: number; pages: Array<{ id: string; rank: number; score: number }> }>; count: number; next?: { page: string } };
  const whole = (await t.call('GET', url('&limit=1000'), { token: fx.admin.token })).body as Found;
  const ranking = whole.items.flatMap((space) => space.pages.map((page) => ({ key: `${space.id}/${page.id}`, rank: page.rank })));
  assert.ok(ranking.length >= 3, `several pages found: ${ranking.length}`);
  assert.is(whole.count, ranking.length, 'count is the pages found');
  assert.equal(
    ranking.map((page) => page.rank).sort((a, b) => a - b),
    ranking.map((_, index) => index + 1),
  );

  const walked: Array<{ key: string; rank: number }> = [];
  let cursor = '';
  for (let answers = 0; answers < ranking.length; answers += 1) {
    const answer = await t.call('GET', url(`&limit=2${cursor}`), { token: fx.admin.token });
    assert.is(answer.status, 200);
    const found = answer.body as Found;
    assert.is(found.count, ranking.length);
    const pages = found.items.flatMap((space) => space.pages.map((page) => ({ key: `${space.id}/${page.id}`, rank: page.rank })));
    assert.ok(pages.length >= 1 && pages.length <= 2, `at most 2 pages an answer: ${pages.length}`);
    assert.is(new Set(found.items.map((space) => space.id)).size, found.items.length, 'a space appears once in an answer');
    for (const space of found.items) assert.is(space.score, Math.max(...space.pages.map((page) => page.score)), 'a space scores as its best page');
    walked.push(...pages);
    if (!found.next) break;
    cursor = `&page=${encodeURIComponent(found.next.page)}`;
  }
  assert.equal(
    walked.sort((a, b) => a.rank - b.rank),
    [...ranking].sort((a, b) => a.rank - b.rank),
    'the answers walk the whole ranking once, ranks as in one answer',
  );
});

test.run();
