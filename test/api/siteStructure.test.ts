import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { purgeDeletedSpaceRows } from '../../storage/spaceDeletion.js';
import { findSpace } from '../../storage/spaces.js';

const test = suite('site structure');
let t: TestServer;
let fx: OrganizationFixture;
let sites: string;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  sites = `/v1/orgs/${fx.org.id}/sites`;
});

const call = (method: string, path: string, body?: unknown) => t.call(method, path, { token: fx.admin.token, body });
const space = async (title: string) => (await call('POST', `/v1/orgs/${fx.org.id}/spaces`, { title })).body as { id: string; title: string };
const newSite = async (title: string, spaces: string[] = []) => (await call('POST', sites, { title, spaces })).body as { id: string };

interface Node {
  object: string;
  title: string;
  children?: Node[];
  siteSpaces?: Array<{ title: string }>;
}
/** The published structure as a compact outline: groups with their children, sections with their site spaces. */
const outline = async (siteId: string): Promise<string[]> => {
  const render = (node: Node): string =>
    node.object === 'site-section-group' ? `${node.title}[${node.children!.map(render).join(' ')}]` : `${node.title}(${node.siteSpaces!.map((s) => s.title).join(',')})`;
  return ((await call('GET', `${sites}/${siteId}/published`)).body.structure.structure as Node[]).map(render);
};

test('a site with two section groups and four sections: build, move around, check the order after every step', async () => {
  const [a, b, c, d, extra] = [await space('Alpha'), await space('Bravo'), await space('Charlie'), await space('Delta'), await space('Echo')];
  const site = await newSite('Product docs');
  const base = `${sites}/${site.id}`;
  const section = async (spaceId: string, title: string) => {
    const created = await call('POST', `${base}/sections`, { spaceId, title });
    assert.is(created.status, 201, JSON.stringify(created.body));
    return created.body as { id: string; default: boolean; siteSpaces: Array<{ id: string }> };
  };
  const s1 = await section(a.id, 'Guides');
  const s2 = await section(b.id, 'API');
  const s3 = await section(c.id, 'SDKs');
  const s4 = await section(d.id, 'Changelog');
  assert.equal([s1.default, s2.default], [true, false], 'the first section is the default');
  assert.equal(await outline(site.id), ['Guides(Alpha)', 'API(Bravo)', 'SDKs(Charlie)', 'Changelog(Delta)']);

  const added = await call('POST', `${base}/site-spaces`, { spaceId: extra.id });
  assert.is(added.status, 201);
  assert.equal([added.body.section, added.body.default], [s1.id, false], 'without sectionId: into the default section');
  const intoSdks = await call('POST', `${base}/site-spaces`, { spaceId: a.id, sectionId: s3.id });
  assert.is(intoSdks.body.section, s3.id);
  assert.equal(await outline(site.id), ['Guides(Alpha,Echo)', 'API(Bravo)', 'SDKs(Charlie,Alpha)', 'Changelog(Delta)']);

  const developers = await call('POST', `${base}/section-groups`, { title: 'Developers', sections: [s3.id, s2.id] });
  assert.is(developers.status, 201);
  assert.equal(
    developers.body.children.map((child: { id: string }) => child.id),
    [s3.id, s2.id],
  );
  assert.equal(
    developers.body.sections.map((child: { id: string }) => child.id),
    [s3.id, s2.id],
  );
  assert.equal(await outline(site.id), ['Guides(Alpha,Echo)', 'Changelog(Delta)', 'Developers[SDKs(Charlie,Alpha) API(Bravo)]']);
  const nested = await call('POST', `${base}/section-groups`, { title: 'Reference', parent: developers.body.id });
  assert.is(nested.body.sectionGroup, developers.body.id);
  assert.equal(await outline(site.id), ['Guides(Alpha,Echo)', 'Changelog(Delta)', 'Developers[SDKs(Charlie,Alpha) API(Bravo) Reference[]]']);

  const move = (kind: string, id: string, position?: unknown) => call('POST', `${base}/${kind}/${id}/move`, position === undefined ? {} : { position });
  assert.is((await move('sections', s2.id, { before: { type: 'site-section', siteSection: s3.id } })).status, 200);
  assert.equal(await outline(site.id), ['Guides(Alpha,Echo)', 'Changelog(Delta)', 'Developers[API(Bravo) SDKs(Charlie,Alpha) Reference[]]']);
  const added2 = await call('POST', `${base}/section-groups/${nested.body.id}/sections`, { sectionId: s4.id });
  assert.equal([added2.status, added2.body.children.map((child: { id: string }) => child.id)], [201, [s4.id]]);
  assert.equal(await outline(site.id), ['Guides(Alpha,Echo)', 'Developers[API(Bravo) SDKs(Charlie,Alpha) Reference[Changelog(Delta)]]']);
  assert.is((await move('section-groups', developers.body.id, { before: { type: 'site-section', id: s1.id } })).status, 200);
  assert.equal(await outline(site.id), ['Developers[API(Bravo) SDKs(Charlie,Alpha) Reference[Changelog(Delta)]]', 'Guides(Alpha,Echo)']);
  assert.is((await move('section-groups', nested.body.id, { after: { type: 'site-section', id: s2.id } })).status, 200);
  assert.equal(await outline(site.id), ['Developers[API(Bravo) Reference[Changelog(Delta)] SDKs(Charlie,Alpha)]', 'Guides(Alpha,Echo)']);
  assert.is((await move('sections', s3.id)).status, 200, 'no position: to the end of its parent');
  assert.equal(await outline(site.id), ['Developers[API(Bravo) Reference[Changelog(Delta)] SDKs(Charlie,Alpha)]', 'Guides(Alpha,Echo)']);
  assert.is((await move('sections', s2.id)).status, 200);
  assert.equal(await outline(site.id), ['Developers[Reference[Changelog(Delta)] SDKs(Charlie,Alpha) API(Bravo)]', 'Guides(Alpha,Echo)']);
  const moved = await move('site-spaces', added.body.id, { before: { type: 'site-space', siteSpace: s1.siteSpaces[0]!.id } });
  assert.equal([moved.status, moved.body.id], [200, added.body.id]);
  assert.equal(await outline(site.id), ['Developers[Reference[Changelog(Delta)] SDKs(Charlie,Alpha) API(Bravo)]', 'Guides(Echo,Alpha)']);

  assert.is((await call('DELETE', `${base}/section-groups/${developers.body.id}/sections/${s3.id}`)).status, 205);
  assert.is((await call('DELETE', `${base}/section-groups/${developers.body.id}/sections/${s3.id}`)).status, 204, 'no longer in the group');
  assert.equal(await outline(site.id), ['Developers[Reference[Changelog(Delta)] API(Bravo)]', 'SDKs(Charlie,Alpha)', 'Guides(Echo,Alpha)'], 'removed from the group: right after it');
  assert.is((await call('DELETE', `${base}/section-groups/${developers.body.id}`)).status, 205);
  assert.equal(await outline(site.id), ['Reference[Changelog(Delta)]', 'API(Bravo)', 'SDKs(Charlie,Alpha)', 'Guides(Echo,Alpha)'], 'a deleted group’s children take its place');
  assert.is((await call('DELETE', `${base}/section-groups/${developers.body.id}`)).status, 204);

  const groups = (await call('GET', `${base}/section-groups`)).body;
  assert.equal(
    groups.items.map((group: { title: string }) => group.title),
    ['Reference'],
  );
  const listed = (await call('GET', `${base}/sections`)).body;
  assert.equal(
    listed.items.map((item: { title: string }) => item.title),
    ['Changelog', 'API', 'SDKs', 'Guides'],
  );
  const defaults = (await call('GET', `${base}/site-spaces?default=true`)).body.items.map((item: { space: { id: string } }) => item.space.id);
  assert.equal(defaults, [d.id, b.id, c.id, a.id], 'one default per section');
  assert.is((await call('GET', `${base}/site-spaces?default=false`)).body.count, 2);
  assert.is((await call('GET', base)).body.siteSpaces, 6);

  assert.is((await call('DELETE', `${base}/sections/${s1.id}`)).status, 205);
  const after = (await call('GET', `${base}/sections`)).body.items;
  assert.equal(
    after.map((item: { title: string; default: boolean }) => [item.title, item.default]),
    [
      ['Changelog', true],
      ['API', false],
      ['SDKs', false],
    ],
    'the default went to the first section left',
  );
  assert.is((await call('GET', base)).body.siteSpaces, 4, 'the section’s site spaces went with it');
  assert.is((await call('DELETE', `${base}/sections/${s1.id}`)).status, 204, 'a missing section still answers success');
});

test('invalid positions: a sibling of another parent, both sides, unknown ids, missing items', async () => {
  const [a, b, c] = [await space('One'), await space('Two'), await space('Three')];
  const site = await newSite('Positions');
  const base = `${sites}/${site.id}`;
  const s1 = (await call('POST', `${base}/sections`, { spaceId: a.id })).body;
  const s2 = (await call('POST', `${base}/sections`, { spaceId: b.id })).body;
  const s3 = (await call('POST', `${base}/sections`, { spaceId: c.id })).body;
  const group = (await call('POST', `${base}/section-groups`, { title: 'Group', sections: [s3.id] })).body;
  assertErrorIs(
    await call('POST', `${base}/sections/${s1.id}/move`, { position: { before: { type: 'site-section', siteSection: s3.id } } }),
    400,
    `Invalid position: site-section ${s3.id} is not a sibling of the section`,
  );
  assertErrorIs(
    await call('POST', `${base}/sections/${s1.id}/move`, { position: { before: { type: 'site-section', siteSection: s1.id } } }),
    400,
    `Invalid position: site-section ${s1.id} is not a sibling of the section`,
  );
  assertErrorIs(
    await call('POST', `${base}/sections/${s1.id}/move`, { position: { before: { type: 'site-section', siteSection: s2.id }, after: { type: 'site-section', siteSection: s2.id } } }),
    400,
    'Invalid position: give "before" or "after", not both',
  );
  assertErrorIs(
    await call('POST', `${base}/sections/${s1.id}/move`, { position: { before: { type: 'site-space', siteSection: s2.id } } }),
    400,
    'Invalid request body: "position.before.type" must be one of "site-section"',
  );
  assertErrorIs(await call('POST', `${base}/sections/${s1.id}/move`, { position: { before: { type: 'site-section' } } }), 400, 'Invalid request body: "position.before.siteSection" is required');
  assertErrorIs(await call('POST', `${base}/sections/nope/move`, {}), 404, 'Site section nope not found');
  assertErrorIs(await call('POST', `${base}/site-spaces/nope/move`, {}), 404, 'Site space nope not found');
  assertErrorIs(await call('POST', `${base}/section-groups/nope/move`, {}), 404, 'Site section group nope not found');
  assertErrorIs(
    await call('POST', `${base}/site-spaces/${s1.siteSpaces[0].id}/move`, { position: { after: { type: 'site-space', siteSpace: s2.siteSpaces[0].id } } }),
    400,
    `Invalid position: site-space ${s2.siteSpaces[0].id} is not a sibling of the site space`,
  );
  assertErrorIs(
    await call('POST', `${base}/section-groups/${group.id}/move`, { position: { after: { type: 'site-section', id: s3.id } } }),
    400,
    `Invalid position: site-section ${s3.id} is not a sibling of the section group`,
  );
  assertErrorIs(await call('POST', `${base}/section-groups`, { title: 'Orphan', parent: 'nope' }), 400, '"parent" nope is not a section group of the site');
  assertErrorIs(await call('POST', `${base}/section-groups`, { title: 'Strays', sections: ['nope'] }), 400, '"sections" nope is not a section of the site');
  assertErrorIs(await call('POST', `${base}/site-spaces`, { spaceId: a.id, sectionId: 'nope' }), 400, '"sectionId" nope is not a section of the site');
  assertErrorIs(await call('POST', `${base}/site-spaces`, { spaceId: 'nope' }), 400, '"spaceId" nope is not a space of the organization');
  assertErrorIs(await call('PATCH', `${base}/sections/nope`, { title: 'Nope' }), 404, 'Site section nope not found');
  assertErrorIs(await call('PATCH', `${base}/sections/${s2.id}`, { path: s1.path }), 400, `"path" ${s1.path} is already the path of another section of the site`);
  assertErrorIs(await t.call('POST', `${base}/sections/${s1.id}/move`, { token: fx.editor.token, body: {} }), 403, messages.needsSiteRole('create', 'edit'));
  assertErrorIs(await call('GET', `${sites}/nope/sections`), 404, 'Site nope not found');
});

test('site spaces: root ones, defaults, hidden, swapped content, conditions checked against the adaptive schema', async () => {
  const [a, b, c] = [await space('Root one'), await space('Root two'), await space('Swapped in')];
  const site = await newSite('Adaptive', [a.id, b.id]);
  const base = `${sites}/${site.id}`;
  const [first, second] = (await call('GET', `${base}/site-spaces`)).body.items;
  assert.equal([first.default, second.default, first.section], [true, false, undefined], 'root site spaces, the first the default');
  const patchedSite = await call('PATCH', base, { defaultSiteSpace: second.id });
  assert.is(patchedSite.status, 200);
  assert.equal(
    (await call('GET', `${base}/site-spaces?default=true`)).body.items.map((item: { id: string }) => item.id),
    [second.id],
  );
  assertErrorIs(await call('PATCH', base, { defaultSiteSection: 'nope' }), 400, '"defaultSiteSection" nope is not a section of the site');

  const sp = `${base}/site-spaces/${first.id}`;
  const hidden = await call('PATCH', sp, { hidden: true, path: 'getting-started', spaceId: c.id });
  assert.equal([hidden.status, hidden.body.hidden, hidden.body.path, hidden.body.space.id, hidden.body.title], [200, true, 'getting-started', c.id, 'Swapped in']);
  assert.equal(
    (await outlineOf(site.id)).map((item) => item.hidden),
    [true, false],
    'hidden stays in the structure (navigation hides it)',
  );

  const condition = 'visitor.claims.unsigned.beta == true && visitor.claims.plan == "pro"';
  const withCondition = await call('PATCH', sp, { condition });
  assert.is(withCondition.body.condition, condition);
  assert.is((await call('PATCH', sp, { hidden: false })).body.condition, condition, 'absent leaves it');
  assertErrorIs(await call('PATCH', sp, { condition: 'visitor.claims.plan ==' }), 400, 'Invalid "condition": Expected expression after == at character 23');
  assertErrorIs(await call('PATCH', sp, { condition: 'visitor.claims.plan == "pro' }), 400, 'Invalid "condition": Unclosed quote after "pro" at character 28');
  assertErrorIs(await call('PATCH', sp, { condition: 'alert(1)' }), 400, 'Invalid "condition": only the methods includes, startsWith, endsWith can be called in a condition');
  assert.is((await call('PATCH', sp, { condition: null })).body.condition, undefined, 'null removes it');

  const jsonSchema = {
    type: 'object',
    properties: {
      plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
      unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { beta: { type: 'boolean', description: 'Beta tester' } }, additionalProperties: false },
    },
    additionalProperties: false,
  };
  assert.is((await call('PUT', `${base}/adaptive-schema`, { jsonSchema })).status, 200);
  assert.is((await call('PATCH', sp, { condition })).status, 200, 'declared claims');
  assertErrorIs(
    await call('PATCH', sp, { condition: 'visitor.claims.seats > 3 || visitor.claims.unsigned.alpha' }),
    400,
    'Invalid "condition": visitor.claims.seats, visitor.claims.unsigned.alpha are not declared by the site’s adaptive schema',
  );

  const section = (await call('POST', `${base}/sections`, { spaceId: a.id, title: 'Second' })).body;
  const sections = (await call('GET', `${base}/sections`)).body.items;
  assert.equal(
    sections.map((item: { title: string; default: boolean }) => [item.title, item.default]),
    [
      ['Root two', true],
      ['Second', false],
    ],
    'the root spaces were gathered into a first, default section named after their default',
  );
  const patchedSection = await call('PATCH', `${base}/sections/${section.id}`, { condition: 'visitor.claims.plan == "pro"', description: 'For pros', icon: 'star', path: 'pro' });
  assert.equal([patchedSection.body.condition, patchedSection.body.description, patchedSection.body.icon, patchedSection.body.path], ['visitor.claims.plan == "pro"', 'For pros', 'star', 'pro']);
  assertErrorIs(
    await call('PATCH', `${base}/sections/${section.id}`, { condition: 'visitor.claims.team' }),
    400,
    'Invalid "condition": visitor.claims.team is not declared by the site’s adaptive schema',
  );
  assertErrorIs(await call('PATCH', `${base}/sections/${section.id}`, { defaultSiteSpace: first.id }), 400, `"defaultSiteSpace" ${first.id} is not a site space of the section`);
  assert.is((await call('PATCH', base, { defaultSiteSection: section.id })).status, 200);
  assert.equal(
    (await call('GET', `${base}/sections`)).body.items.map((item: { default: boolean }) => item.default),
    [false, true],
  );

  assert.is((await call('DELETE', sp)).status, 205);
  assert.is((await call('DELETE', sp)).status, 204, 'a missing site space still answers success');
});

test('a space in the bin leaves its sites until restored; purged, its site spaces go and the default moves on', async () => {
  const [gone, stays] = [await space('Going away'), await space('Staying')];
  const site = await newSite('Purges', [gone.id, stays.id]);
  const base = `${sites}/${site.id}`;
  assert.is((await call('DELETE', `/v1/spaces/${gone.id}`)).status, 205);
  assert.is((await call('GET', base)).body.siteSpaces, 1, 'a space in the bin is not counted');
  assert.equal(
    (await call('GET', `${base}/site-spaces`)).body.items.map((item: { space: { id: string } }) => item.space.id),
    [stays.id],
  );
  const deletedAt = (await findSpace(t.server.db, gone.id, { includeDeleted: true }))!.deletedAt!;
  assert.is(await purgeDeletedSpaceRows(t.server.db, gone.id, deletedAt), 'purged');
  const left = (await call('GET', `${base}/site-spaces`)).body.items;
  assert.equal(
    left.map((item: { space: { id: string }; default: boolean }) => [item.space.id, item.default]),
    [[stays.id, true]],
    'the purged default handed over',
  );
  assert.is((await t.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM site_spaces WHERE space_id = ?', [gone.id]))?.n, 0);
});

test('many moves into one gap keep a clear order (the siblings are renumbered only when the gap wears out)', async () => {
  const site = await newSite('Worn gap');
  const base = `${sites}/${site.id}`;
  const ids: string[] = [];
  for (const title of ['Anchor', 'Mover A', 'Mover B']) ids.push((await call('POST', `${base}/sections`, { spaceId: (await space(title)).id, title })).body.id);
  const [anchor, a, b] = ids as [string, string, string];
  for (let i = 0; i < 70; i += 1) {
    const mover = i % 2 ? b : a;
    assert.is((await call('POST', `${base}/sections/${mover}/move`, { position: { before: { type: 'site-section', siteSection: anchor } } })).status, 200);
    const order = (await call('GET', `${base}/sections`)).body.items.map((item: { id: string }) => item.id);
    assert.equal(order, i === 0 ? [a, anchor, b] : [i % 2 ? a : b, mover, anchor], `after move ${i + 1}`);
  }
});

const outlineOf = async (siteId: string) => (await call('GET', `${sites}/${siteId}/published`)).body.structure.structure as Array<{ hidden: boolean }>;

test('sortSiteStructure moves any item among its siblings; duplicateSiteSpace copies a site space and its space right after it', async () => {
  const [a, b, c] = [await space('Ant'), await space('Bee'), await space('Cat')];
  const site = await newSite('Sorted', [a.id, b.id, c.id]);
  const base = `${sites}/${site.id}`;
  const spaces = (await call('GET', `${base}/site-spaces`)).body.items as Array<{ id: string; title: string }>;
  const titles = async () => ((await call('GET', `${base}/site-spaces`)).body.items as Array<{ title: string }>).map((item) => item.title);
  const [ant, , cat] = spaces;
  const moved = await call('PATCH', `${base}/structure/sort`, { item: { type: 'site-space', id: cat!.id }, position: { before: { type: 'site-space', id: ant!.id } } });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.is(moved.body.id, cat!.id);
  assert.equal(await titles(), ['Cat', 'Ant', 'Bee']);
  const minimal = await t.call('PATCH', `${base}/structure/sort`, { token: fx.admin.token, body: { item: { type: 'site-space', id: ant!.id }, position: {} }, headers: { prefer: 'return=minimal' } });
  assert.is(minimal.status, 204);
  assert.equal(await titles(), ['Cat', 'Bee', 'Ant'], 'no position: to the end');
  assertErrorIs(await call('PATCH', `${base}/structure/sort`, { item: { type: 'site-external-link', id: 'x' }, position: {} }), 404, "Site external link x not found: Quire's sites have none");
  assertErrorIs(await call('PATCH', `${base}/structure/sort`, { item: { type: 'site-space', id: 'nope' }, position: {} }), 404, 'Site space nope not found');

  const duplicated = await call('POST', `${base}/site-spaces/${cat!.id}/duplicate`, {});
  assert.is(duplicated.status, 201, JSON.stringify(duplicated.body));
  assert.is(duplicated.body.title, 'Cat (copy)');
  assert.is.not(duplicated.body.space.id, c.id, 'its own space, a copy of the original');
  assert.is(duplicated.body.default, false);
  assert.equal(await titles(), ['Cat', 'Cat (copy)', 'Bee', 'Ant'], 'right after the original');
  assertErrorIs(await call('POST', `${base}/site-spaces/${cat!.id}/duplicate`, { draft: true }), 400, /"draft": Quire has no draft site spaces.*/);
  // A creator who may build the site but only read the collection the space is in: no copy made.
  const shelf = (await call('POST', `/v1/orgs/${fx.org.id}/collections`, { title: 'Read-only shelf' })).body as { id: string };
  assert.is((await call('PATCH', `/v1/collections/${shelf.id}`, { defaultLevel: 'read' })).status, 200);
  const shelved = (await call('POST', `/v1/orgs/${fx.org.id}/spaces`, { title: 'Shelved', parent: shelf.id })).body as { id: string };
  const onSite = (await call('POST', `${base}/site-spaces`, { spaceId: shelved.id })).body as { id: string };
  const before = (await call('GET', `/v1/orgs/${fx.org.id}/spaces`)).body.count as number;
  assertErrorIs(
    await t.call('POST', `${base}/site-spaces/${onSite.id}/duplicate`, { token: fx.creator.token, body: {} }),
    403,
    `Duplicating site space ${onSite.id} copies its space, which needs the create role where the space is`,
  );
  assert.is((await call('GET', `/v1/orgs/${fx.org.id}/spaces`)).body.count, before, 'no space was copied');
});

test("a space the caller can't read can't be put on a site: a site shows it to its readers", async () => {
  const hidden = await space('Hidden plans');
  await call('PATCH', `/v1/spaces/${hidden.id}`, { defaultLevel: null });
  const mine = await space('Public guide');
  const as = (method: string, path: string, body?: unknown) => t.call(method, path, { token: fx.creator.token, body });
  assert.is((await as('GET', `/v1/spaces/${hidden.id}`)).status, 404, 'the creator cannot see it');
  const refused = `is not a space of the organization`;
  assertErrorIs(await as('POST', sites, { title: 'Leaky', spaces: [hidden.id] }), 400, `"spaces" ${hidden.id} ${refused}`);
  const site = (await as('POST', sites, { title: 'Mine', spaces: [mine.id] })).body;
  const base = `${sites}/${site.id}`;
  assertErrorIs(await as('POST', `${base}/site-spaces`, { spaceId: hidden.id }), 400, `"spaceId" ${hidden.id} ${refused}`);
  assertErrorIs(await as('POST', `${base}/sections`, { spaceId: hidden.id }), 400, `"spaceId" ${hidden.id} ${refused}`);
  const siteSpace = (await as('GET', `${base}/site-spaces`)).body.items[0];
  assertErrorIs(await as('PATCH', `${base}/site-spaces/${siteSpace.id}`, { spaceId: hidden.id }), 400, `"spaceId" ${hidden.id} ${refused}`);
  // The admin, who reads it, may.
  assert.is((await call('POST', `${base}/site-spaces`, { spaceId: hidden.id })).status, 201);
  // Members see the site spaces of the spaces they reach: the hidden one's title stays hidden.
  const listed = async (token: string) => (await t.call('GET', `${base}/site-spaces`, { token })).body.items.map((item: { space: { title: string } }) => item.space.title);
  assert.equal(await listed(fx.admin.token), ['Public guide', 'Hidden plans']);
  assert.equal(await listed(fx.creator.token), ['Public guide']);
  assert.equal(await listed(fx.reader.token), ['Public guide']);
  const published = await t.call('GET', `${base}/published`, { token: fx.reader.token });
  assert.is(published.status, 200);
  assert.ok(JSON.stringify(published.body).includes('Public guide'));
  assert.ok(!JSON.stringify(published.body).includes('Hidden plans'), 'nor in the published profile a member reads');
  // Nor do they change it, or move it: for them it isn't there.
  const hiddenSiteSpace = (await call('GET', `${base}/site-spaces`)).body.items.find((item: { space: { id: string } }) => item.space.id === hidden.id);
  assertErrorIs(await as('PATCH', `${base}/site-spaces/${hiddenSiteSpace.id}`, { hidden: true }), 404, `Site space ${hiddenSiteSpace.id} not found`);
  assertErrorIs(
    await as('POST', `${base}/site-spaces/${hiddenSiteSpace.id}/move`, { position: { before: { type: 'site-space', siteSpace: siteSpace.id } } }),
    404,
    `Site space ${hiddenSiteSpace.id} not found`,
  );
  const hiddenNow = async () => (await call('GET', `${base}/site-spaces`)).body.items.find((item: { id: string }) => item.id === hiddenSiteSpace.id).hidden;
  assert.is(await hiddenNow(), false, 'unchanged');
  assert.is((await call('PATCH', `${base}/site-spaces/${hiddenSiteSpace.id}`, { hidden: true })).status, 200, 'the admin still may');
  assert.is(await hiddenNow(), true);
});

test.run();
