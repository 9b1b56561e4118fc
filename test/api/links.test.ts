import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('links');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string; revision: string };
withOrganization(test, async (setup) => ({ t, fx } = setup));
test.before.each(async () => {
  space ??= (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Linked', template: { id: 'getting-started' } } })).body;
});

type Usage = { status: string; targetReference?: { kind: string; url?: string; page?: { title: string }; file?: { name: string } }; locationReferences: Array<{ page: { title: string } }> };
const describe = (usage: Usage) =>
  `${usage.status} ${usage.targetReference?.kind}:${usage.targetReference?.url ?? usage.targetReference?.page?.title ?? usage.targetReference?.file?.name} from ${usage.locationReferences.map((l) => l.page.title).join(',')}`;

test('space links: every link classified against the revision, with stats and a status filter', async () => {
  const links = await t.call('GET', `/v1/spaces/${space.id}/links`, { token: fx.reader.token });
  assert.is(links.status, 200);
  const described = links.body.items.map(describe).sort();
  assert.equal(described, [
    'broken url:setup.md from Configuration',
    'ok file:logo.png from Introduction',
    'ok page:Configuration from Quick start',
    'ok page:FAQ from Introduction',
    'ok page:Introduction from FAQ',
    'ok page:Quick start from Introduction',
  ]);
  assert.equal(links.body.stats, { total: 6, broken: { total: 1, changeRequest: 0 } });
  const broken = await t.call('GET', `/v1/spaces/${space.id}/links?status=broken`, { token: fx.reader.token });
  assert.equal(broken.body.items.map(describe), ['broken url:setup.md from Configuration']);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/links?status=fine`, { token: fx.reader.token }), 400, 'Invalid query parameter: "status" must be one of "ok", "broken", "in-app"');
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/links`, { token: fx.guest.token }), 404, `Space ${space.id} not found`);
});

test('page links and file backlinks', async () => {
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages;
  const intro = pages.find((page: { title: string }) => page.title === 'Introduction');
  const links = await t.call('GET', `/v1/spaces/${space.id}/content/page/${intro.id}/links`, { token: fx.reader.token });
  assert.equal(links.body.items.map(describe).sort(), ['ok file:logo.png from Introduction', 'ok page:FAQ from Introduction', 'ok page:Quick start from Introduction']);
  const files = (await t.call('GET', `/v1/spaces/${space.id}/content/files`, { token: fx.reader.token })).body.items;
  const backlinks = await t.call('GET', `/v1/spaces/${space.id}/content/files/${files[0].id}/backlinks`, { token: fx.reader.token });
  assert.is(backlinks.status, 200);
  assert.equal(
    backlinks.body.items.map((item: { page: { title: string } }) => item.page.title),
    ['Introduction'],
  );
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/content/page/nope/links`, { token: fx.reader.token }), 404, `Page nope not found in revision ${space.revision}`);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/content/files/nope/backlinks`, { token: fx.reader.token }), 404, `File nope not found in revision ${space.revision}`);
});

test.run();
