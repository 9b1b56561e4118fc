import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluateCondition } from '../../domain/common/conditions.js';
import { assertErrorIs, assertGuarded, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('sites');
let t: TestServer;
let fx: OrganizationFixture;
let sites: string;
/** QUIRE_PUBLIC_URL's default: http://localhost:<port>. */
let base: string;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  sites = `/v1/orgs/${fx.org.id}/sites`;
  base = t.url.replace('127.0.0.1', 'localhost');
});

const space = async (title: string) => (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title } })).body as { id: string; title: string };
const createSite = async (body: Record<string, unknown>) => {
  const created = await t.call('POST', sites, { token: fx.admin.token, body });
  assert.is(created.status, 201, JSON.stringify(created.body));
  return created.body;
};

test('create (type basic by default, with spaces), get, list with filters, patch, delete', async () => {
  const guide = await space('Guide');
  const api = await space('API reference');
  const site = await createSite({ title: 'Developer docs', visibility: 'public', spaces: [guide.id, api.id] });
  assert.is(site.type, 'basic');
  assert.is(site.siteSpaces, 2);
  assert.is(site.published, false);
  assert.is(site.urls.published, undefined, 'no published URL before publishing');
  assert.is(site.urls.location, `${base}/v1/orgs/${fx.org.id}/sites/${site.id}`);
  const read = (await t.call('GET', `${sites}/${site.id}`, { token: fx.reader.token })).body;
  assert.equal({ ...read, permissions: undefined }, { ...site, permissions: undefined }, 'a reader gets the site its creator got');
  assert.equal(site.permissions, { view: true, access: true, edit: true, create: true, admin: true, installIntegration: true, viewAdaptiveSchema: true, editAdaptiveSchema: true });
  assert.equal(
    read.permissions,
    { view: true, access: true, edit: false, create: false, admin: false, installIntegration: false, viewAdaptiveSchema: true, editAdaptiveSchema: false },
    "what a reader may do, from the site routes' rules",
  );

  const other = await createSite({ title: 'Handbook', type: 'premium', visibility: 'unlisted' });
  const ids = async (query: string) => (await t.call('GET', `${sites}${query}`, { token: fx.reader.token })).body.items.map((item: { id: string }) => item.id);
  assert.equal(await ids(''), [site.id, other.id]);
  assert.equal(await ids(`?space=${api.id}`), [site.id]);
  assert.equal(await ids('?title=handb'), [other.id]);
  assert.equal(await ids('?type=premium'), [other.id]);
  assert.equal(await ids('?type=premium&type=basic'), [site.id, other.id]);
  assert.equal(await ids('?published=true'), []);

  const patched = await t.call('PATCH', `${sites}/${site.id}`, {
    token: fx.admin.token,
    body: { title: 'Developers', visibility: 'share-link', basename: 'dev', adaptiveContent: { enabled: true }, agentsContext: 'excluded', proxy: 'company.com/docs', hostname: 'docs.example.com' },
  });
  assert.is(patched.status, 200);
  assert.equal(
    [patched.body.title, patched.body.visibility, patched.body.basename, patched.body.adaptiveContent, patched.body.agentsContext, patched.body.proxy.origin, patched.body.hostname],
    ['Developers', 'share-link', 'dev', { enabled: true }, 'excluded', 'company.com/docs', 'docs.example.com'],
  );
  assert.equal((await t.call('GET', `${sites}/${site.id}`, { token: fx.admin.token })).body, patched.body, 'the PATCH answers what a later GET reads');
  const unproxied = await t.call('PATCH', `${sites}/${site.id}`, { token: fx.admin.token, body: { proxy: null, hostname: null } });
  assert.is(unproxied.body.proxy, undefined);
  assert.is(unproxied.body.hostname, undefined);

  assertErrorIs(await t.call('PATCH', `${sites}/${site.id}`, { token: fx.admin.token, body: { proxy: 'https://company.com/docs' } }), 400, /Invalid request body: "proxy" must match pattern ".*"/);
  assertErrorIs(await t.call('PATCH', `${sites}/${site.id}`, { token: fx.admin.token, body: { proxy: 'company.com' } }), 400, /Invalid request body: "proxy" must match pattern ".*"/);
  assertErrorIs(await t.call('PATCH', `${sites}/${site.id}`, { token: fx.admin.token, body: { hostname: 'Docs.Example.com' } }), 400, /Invalid request body: "hostname" must match pattern ".*"/);
  assertErrorIs(await t.call('PATCH', `${sites}/${site.id}`, { token: fx.admin.token, body: { hostname: 'localhost' } }), 400, /Invalid request body: "hostname" must match pattern ".*"/);
  assertErrorIs(await t.call('POST', sites, { token: fx.admin.token, body: { title: 'X' } }), 400, 'Invalid request body: "title" must NOT have fewer than 2 characters');
  assertErrorIs(await t.call('POST', sites, { token: fx.admin.token, body: { title: 'Docs', spaces: ['nope'] } }), 400, '"spaces" nope is not a space of the organization');
  assertErrorIs(await t.call('GET', `${sites}/nope`, { token: fx.admin.token }), 404, 'Site nope not found');
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.elsewhere.id}/sites/${site.id}`, { token: fx.outsider.token }), 404, `Site ${site.id} not found`, 'a site of another organization');
  await assertGuarded(t, fx, 'PATCH', `${sites}/${site.id}`, { body: { title: 'No' }, tooLow: { who: fx.creator, message: messages.needsSiteRole('admin', 'create') } });
  await assertGuarded(t, fx, 'POST', sites, { body: { title: 'No' }, tooLow: { who: fx.editor, message: messages.needsOrgRole('create', 'edit') } });
  await assertGuarded(t, fx, 'GET', sites, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest') } });

  assert.is((await t.call('DELETE', `${sites}/${other.id}`, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', `${sites}/${other.id}`, { token: fx.admin.token })).status, 204, 'a missing site still answers success');
  assertErrorIs(await t.call('GET', `${sites}/${other.id}`, { token: fx.admin.token }), 404, `Site ${other.id} not found`);
});

test('publish and unpublish: published URL on this server, which answers a clear 404 page until sites are served', async () => {
  const welcome = await space('Welcome');
  const site = await createSite({ title: 'Public docs', spaces: [welcome.id] });
  assert.is((await t.call('GET', `/v1/spaces/${welcome.id}`, { token: fx.admin.token })).body.urls.published, undefined, 'not published yet');
  const published = await t.call('POST', `${sites}/${site.id}/publish`, { token: fx.admin.token });
  assert.is(published.status, 200);
  assert.is(published.body.published, true);
  assert.is(published.body.urls.published, `${base}/sites/${site.id}/`);
  assert.is((await t.call('GET', `/v1/spaces/${welcome.id}`, { token: fx.admin.token })).body.urls.published, `${base}/sites/${site.id}/`, 'the space’s published URL: its site’s');
  const listed = await t.call('GET', `${sites}?published=true`, { token: fx.admin.token });
  assert.ok(listed.body.items.some((item: { id: string }) => item.id === site.id));
  const page = await fetch(published.body.urls.published);
  assert.is(page.status, 200, 'the site is served where urls.published points');
  assert.ok((page.headers.get('content-type') ?? '').startsWith('text/html'), 'an HTML page, not JSON');
  assert.match(await page.text(), /<title>[^<]+ \| Public docs<\/title>/);
  const unpublished = await t.call('POST', `${sites}/${site.id}/unpublish`, { token: fx.admin.token });
  assert.equal([unpublished.body.published, unpublished.body.urls.published], [false, undefined]);
  assertErrorIs(await t.call('POST', `${sites}/${site.id}/publish`, { token: fx.creator.token }), 403, messages.needsSiteRole('admin', 'create'));
});

test('share links: create, list, patch, delete; shareKey resolves published URLs only with an active key of that site', async () => {
  const content = await space('Private beta');
  const site = await createSite({ title: 'Beta docs', visibility: 'share-link', spaces: [content.id] });
  const foreign = await createSite({ title: 'Other docs', visibility: 'share-link', spaces: [content.id] });
  await t.call('POST', `${sites}/${site.id}/publish`, { token: fx.admin.token });
  const links = `${sites}/${site.id}/share-links`;
  const created = await t.call('POST', links, { token: fx.admin.token, body: { name: 'Partners' } });
  assert.is(created.status, 201);
  assert.equal([created.body.name, created.body.active], ['Partners', true]);
  const key = new URL(created.body.urls.published).searchParams.get('share')!;
  assert.ok(key.length >= 32, 'a secret key');
  const foreignKey = new URL((await t.call('POST', `${sites}/${foreign.id}/share-links`, { token: fx.admin.token, body: { name: 'Elsewhere' } })).body.urls.published).searchParams.get('share')!;
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { name: 'x'.repeat(51) } }), 400, 'Invalid request body: "name" must NOT have more than 50 characters');
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: {} }), 400, 'Invalid request body: "name" is required');

  const siteSpaceUrl = async (shareKey?: string) => {
    const query = shareKey ? `?shareKey=${encodeURIComponent(shareKey)}` : '';
    return (await t.call('GET', `${sites}/${site.id}/site-spaces${query}`, { token: fx.admin.token })).body.items[0].urls.published as string | undefined;
  };
  const profileUrl = async (shareKey: string) =>
    (await t.call('GET', `${sites}/${site.id}/published?shareKey=${encodeURIComponent(shareKey)}`, { token: fx.admin.token })).body.structure.structure[0].urls.published as string | undefined;
  assert.is(await siteSpaceUrl(), undefined, 'no key: no URL for a share-link site');
  assert.is(await siteSpaceUrl(key), `${base}/sites/${site.id}/?share=${key}`, 'an active key of the site');
  assert.is(await profileUrl(key), `${base}/sites/${site.id}/?share=${key}`);
  const spaceUrl = async (shareKey?: string) =>
    (await t.call('GET', `/v1/spaces/${content.id}${shareKey ? `?shareKey=${encodeURIComponent(shareKey)}` : ''}`, { token: fx.admin.token })).body.urls.published as string | undefined;
  assert.is(await spaceUrl(key), `${base}/sites/${site.id}/?share=${key}`, 'GET /v1/spaces/{id} resolves it too');
  assert.is(await spaceUrl(), undefined);
  assert.is(await spaceUrl(foreignKey), undefined, 'the other site showing the space is unpublished');
  assert.is(await siteSpaceUrl(foreignKey), undefined, 'a key of another site');
  assert.is(await siteSpaceUrl('made-up'), undefined, 'an unknown key');

  const deactivated = await t.call('PATCH', `${links}/${created.body.id}`, { token: fx.admin.token, body: { active: false } });
  assert.equal([deactivated.status, deactivated.body.active, deactivated.body.name], [200, false, 'Partners']);
  assert.is(await siteSpaceUrl(key), undefined, 'an inactive key');
  assert.is(await spaceUrl(key), undefined, 'an inactive key, on the space too');
  assert.is(await profileUrl(key), undefined);
  const renamed = await t.call('PATCH', `${links}/${created.body.id}`, { token: fx.admin.token, body: { name: 'Partners 2026', active: true } });
  assert.equal([renamed.body.name, renamed.body.active], ['Partners 2026', true]);
  assert.is(await siteSpaceUrl(key), `${base}/sites/${site.id}/?share=${key}`, 'active again');
  assertErrorIs(await t.call('PATCH', `${links}/${created.body.id}`, { token: fx.admin.token, body: {} }), 400, 'Invalid request body: the body must have at least 1 field');
  assertErrorIs(await t.call('PATCH', `${links}/nope`, { token: fx.admin.token, body: { active: false } }), 404, 'Share link nope not found');

  const listed = await t.call('GET', links, { token: fx.admin.token });
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [created.body.id],
  );
  assertErrorIs(await t.call('GET', links, { token: fx.creator.token }), 403, messages.needsSiteRole('admin', 'create'));
  assert.is((await t.call('DELETE', `${links}/${created.body.id}`, { token: fx.admin.token })).status, 204);
  assert.is((await t.call('DELETE', `${links}/${created.body.id}`, { token: fx.admin.token })).status, 204, 'also when missing');
  assert.is(await siteSpaceUrl(key), undefined, 'a deleted link’s key');
  assert.equal((await t.call('GET', links, { token: fx.admin.token })).body.items, []);
});

const claim = (type: string, extra: Record<string, unknown> = {}) => ({ type, description: `A ${type} claim`, ...extra });
const validSchema = {
  type: 'object',
  properties: {
    plan: claim('string', { enum: ['free', 'pro'] }),
    seats: claim('number'),
    roles: claim('array', { items: claim('string') }),
    company: claim('object', { properties: { size: claim('string') }, additionalProperties: false }),
    unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { beta: claim('boolean') }, additionalProperties: false },
  },
  additionalProperties: false,
};

test('adaptive schema: GET before any is 404; PUT validates (draft-07 and the upstream shape) and answers the path; template conditions', async () => {
  const site = await createSite({ title: 'Adaptive docs' });
  const schemaPath = `${sites}/${site.id}/adaptive-schema`;
  assertErrorIs(await t.call('GET', schemaPath, { token: fx.admin.token }), 404, `Site ${site.id} has no adaptive schema`);
  assert.equal((await t.call('GET', `${schemaPath}/template-conditions`, { token: fx.admin.token })).body, { items: [] });

  const invalid: Array<[string, unknown, string | RegExp]> = [
    ['no additionalProperties at the top', { type: 'object', properties: {} }, 'Invalid request body: "jsonSchema.additionalProperties" is required'],
    ['additionalProperties true', { ...validSchema, additionalProperties: true }, 'Invalid request body: "jsonSchema.additionalProperties" must be equal to constant'],
    ['a type other than object', { ...validSchema, type: 'array' }, 'Invalid request body: "jsonSchema.type" must be equal to constant'],
    ['a claim without description', { ...validSchema, properties: { plan: { type: 'string' } } }, /Invalid request body: "jsonSchema\.properties\.plan.*/],
    ['a claim of an unknown type', { ...validSchema, properties: { plan: claim('integer') } }, /Invalid request body: "jsonSchema\.properties\.plan.*/],
    ['an array claim without items', { ...validSchema, properties: { roles: claim('array') } }, /Invalid request body: "jsonSchema\.properties\.roles.*/],
    ['an object claim left open', { ...validSchema, properties: { company: claim('object', { properties: {} }) } }, /Invalid request body: "jsonSchema\.properties\.company.*/],
    [
      'a nested claim without description',
      { ...validSchema, properties: { company: claim('object', { properties: { size: { type: 'string' } }, additionalProperties: false }) } },
      /Invalid request body: "jsonSchema\.properties\.company.*/,
    ],
    [
      'unsigned without its description',
      { ...validSchema, properties: { unsigned: { type: 'object', properties: {}, additionalProperties: false } } },
      'Invalid request body: "jsonSchema.properties.unsigned.description" is required',
    ],
    [
      'unsigned left open',
      { ...validSchema, properties: { unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: {}, additionalProperties: true } } },
      'Invalid request body: "jsonSchema.properties.unsigned.additionalProperties" must be equal to constant',
    ],
    [
      'a claim name that is not an identifier',
      { ...validSchema, properties: { 'plan name': claim('boolean') } },
      'Invalid request body: "jsonSchema.properties.plan name" is not a claim name: letters, digits, _ and $, not starting with a digit, at most 64',
    ],
    [
      'a nested claim name that is not an identifier',
      { ...validSchema, properties: { unsigned: { ...validSchema.properties.unsigned, properties: { '1st': claim('boolean') } } } },
      'Invalid request body: "jsonSchema.properties.unsigned.properties.1st" is not a claim name: letters, digits, _ and $, not starting with a digit, at most 64',
    ],
    ['an unknown keyword', { ...validSchema, required: ['plan'] }, 'Invalid request body: "jsonSchema.required" is not an accepted field'],
    ['the wrong $schema', { ...validSchema, $schema: 'https://json-schema.org/draft/2020-12/schema' }, 'Invalid request body: "jsonSchema.$schema" must be equal to constant'],
    ['an enum that is not strings', { ...validSchema, properties: { plan: claim('string', { enum: [1] }) } }, /Invalid request body: "jsonSchema\.properties\.plan.*/],
    ['no jsonSchema', undefined, 'Invalid request body: "jsonSchema" is required'],
  ];
  for (const [why, jsonSchema, message] of invalid) {
    assertErrorIs(await t.call('PUT', schemaPath, { token: fx.admin.token, body: jsonSchema === undefined ? {} : { jsonSchema } }), 400, message, why);
  }
  assertErrorIs(await t.call('GET', schemaPath, { token: fx.admin.token }), 404, `Site ${site.id} has no adaptive schema`, 'refused schemas stored nothing');

  const put = await t.call('PUT', schemaPath, { token: fx.admin.token, body: { jsonSchema: validSchema } });
  assert.is(put.status, 200);
  assert.equal(put.body.jsonSchema, validSchema);
  assert.equal((await t.call('GET', schemaPath, { token: fx.reader.token })).body, put.body);
  assertErrorIs(await t.call('PUT', schemaPath, { token: fx.creator.token, body: { jsonSchema: validSchema } }), 403, messages.needsSiteRole('admin', 'create'));

  const templates = (await t.call('GET', `${schemaPath}/template-conditions`, { token: fx.reader.token })).body.items as Array<{ description: string; condition: string }>;
  assert.equal(
    templates.map((item) => item.condition),
    ['visitor.claims.plan == "free"', 'visitor.claims.seats > 0', 'visitor.claims.roles.includes("example")', 'visitor.claims.company.size == "example"', 'visitor.claims.unsigned.beta == true'],
  );
  assert.is(templates[0]!.description, 'Visitors whose visitor.claims.plan (A string claim) is "free"');
  const visitor = { visitor: { claims: { plan: 'free', seats: 3, roles: ['example'], company: { size: 'example' }, unsigned: { beta: true } } } };
  for (const item of templates) assert.ok(evaluateCondition(item.condition, visitor), `${item.condition} is a valid condition a matching visitor passes`);
});

test('published profile: the site, its structure, customizations per site space, scripts', async () => {
  const a = await space('Alpha');
  const site = await createSite({ title: 'Profiled docs', spaces: [a.id] });
  const profile = await t.call('GET', `${sites}/${site.id}/published`, { token: fx.reader.token });
  assert.is(profile.status, 200);
  assert.is(profile.body.object, 'published-content-site');
  assert.is(profile.body.site.id, site.id);
  assert.is(profile.body.structure.type, 'siteSpaces');
  const [siteSpace] = profile.body.structure.structure;
  assert.equal([siteSpace.space.id, siteSpace.default, siteSpace.title], [a.id, true, 'Alpha']);
  assert.equal(Object.keys(profile.body.customizations.siteSpaces), [siteSpace.id]);
  assert.is(profile.body.customizations.site.title, 'Profiled docs');
  assert.equal(profile.body.scripts, []);
  await t.call('POST', `${sites}/${site.id}/sections`, { token: fx.admin.token, body: { spaceId: (await space('Beta')).id } });
  const sectioned = (await t.call('GET', `${sites}/${site.id}/published`, { token: fx.reader.token })).body;
  assert.is(sectioned.structure.type, 'sections');
  assert.equal(
    sectioned.structure.structure.map((section: { title: string }) => section.title),
    ['Alpha', 'Beta'],
    'the root spaces were gathered into a first section',
  );
  await t.call('PATCH', `/v1/spaces/${a.id}`, { token: fx.admin.token, body: { title: 'Alpha renamed' } });
  const renamed = (await t.call('GET', `${sites}/${site.id}/published`, { token: fx.reader.token })).body;
  assert.is(renamed.structure.structure[0].siteSpaces[0].space.title, 'Alpha renamed', 'a kept profile is never stale: its key holds the spaces too');
  const asAdmin = (await t.call('GET', `${sites}/${site.id}/published`, { token: fx.admin.token })).body;
  assert.equal([renamed.structure.structure[0].siteSpaces[0].space.permissions.admin, asAdmin.structure.structure[0].siteSpaces[0].space.permissions.admin], [false, true], 'nor shared between roles');
});

test.run();
