import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, assertGuarded, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('organizations');
let t: TestServer;
let fx: OrganizationFixture;

withOrganization(test, (setup) => ({ t, fx } = setup));

test('POST /orgs creates an organization whose creator is its admin', async () => {
  const person = await t.user();
  const created = await t.call('POST', '/v1/orgs', { token: person.token, body: { title: 'Fresh Org' } });
  assert.is(created.status, 201);
  assert.is(created.body.title, 'Fresh Org');
  assert.is(created.body.permissions.admin, true);
  const member = await t.call('GET', `/v1/orgs/${created.body.id}/members/${person.id}`, { token: person.token });
  assert.is(member.body.role, 'admin');
  assertErrorIs(await t.call('POST', '/v1/orgs', { token: person.token, body: { title: 'x' } }), 400, 'Invalid request body: "title" must NOT have fewer than 2 characters');
  assertErrorIs(await t.call('POST', '/v1/orgs', { body: { title: 'No token' } }), 401, 'Authentication required: send an Authorization: Bearer <token> header');
});

test('POST /orgs takes email domains, and can start the organization with a docs site and an OpenAPI specification', async () => {
  const person = await t.user();
  const created = await t.call('POST', '/v1/orgs?withDefaultSite=true&openapiUrl=https%3A%2F%2Fapi.example.com%2Fopenapi.yaml', {
    token: person.token,
    body: { title: 'Started Org', emailDomains: ['Started.Example'], onboardingPreferences: { source: 'template', audience: 'public', interests: ['api-docs'] } },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.is(created.headers.get('location'), created.body.urls.location);
  assert.equal(created.body.emailDomains, ['started.example']);
  const sites = await t.call('GET', `/v1/orgs/${created.body.id}/sites`, { token: person.token });
  assert.is(sites.body.count, 1);
  assert.is(sites.body.items[0].title, 'Started Org');
  assert.is(sites.body.items[0].published, false, 'the default site waits to be published');
  const spaces = await t.call('GET', `/v1/orgs/${created.body.id}/spaces`, { token: person.token });
  assert.equal(
    spaces.body.items.map((space: { title: string }) => space.title),
    ['Documentation'],
  );
  const pages = await t.call('GET', `/v1/spaces/${spaces.body.items[0].id}/content/pages`, { token: person.token });
  assert.ok(pages.body.pages.length > 1, 'the space holds the getting-started guide');
  const spec = await t.call('GET', `/v1/orgs/${created.body.id}/openapi/api`, { token: person.token });
  assert.is(spec.status, 200);
  assert.is(spec.body.sourceURL, 'https://api.example.com/openapi.yaml');

  // Without the default site, the URL has nothing to attach to: ignored, as upstream says.
  const plain = await t.call('POST', '/v1/orgs?openapiUrl=https%3A%2F%2Fapi.example.com%2Fopenapi.yaml', { token: person.token, body: { title: 'Plain Org' } });
  assert.is(plain.status, 201);
  assert.is((await t.call('GET', `/v1/orgs/${plain.body.id}/openapi/api`, { token: person.token })).status, 404);
  assertErrorIs(await t.call('POST', '/v1/orgs?openapiUrl=ftp%3A%2F%2Fx', { token: person.token, body: { title: 'Bad' } }), 400, /Invalid query parameter: "openapiUrl" .*/);
  assertErrorIs(
    await t.call('POST', '/v1/orgs', { token: person.token, body: { title: 'Bad', onboardingPreferences: { source: 'fax', audience: null, interests: [] } } }),
    400,
    /Invalid request body: "onboardingPreferences.source" .*/,
  );
});

test('GET /orgs lists the caller’s organizations with their own permissions', async () => {
  const asReader = await t.call('GET', '/v1/orgs', { token: fx.reader.token });
  assert.is(asReader.status, 200);
  assert.equal(
    asReader.body.items.map((o: { id: string }) => o.id),
    [fx.org.id],
  );
  assert.is(asReader.body.count, 1);
  assert.is(asReader.body.next, undefined);
  assert.is(asReader.body.items[0].permissions.admin, false);
  assert.is(asReader.body.items[0].permissions.listMembers, true);
  assertErrorIs(await t.call('GET', '/v1/orgs?limit=1001', { token: fx.reader.token }), 400, 'Invalid query parameter: "limit" must be <= 1000');
  assertErrorIs(await t.call('GET', '/v1/orgs'), 401, 'Authentication required: send an Authorization: Bearer <token> header');
});

test('GET /orgs/{id}: members see it, outsiders get 404, unknown ids 404', async () => {
  const asGuest = await t.call('GET', `/v1/orgs/${fx.org.id}`, { token: fx.guest.token });
  assert.is(asGuest.status, 200);
  assert.is(asGuest.body.id, fx.org.id);
  assert.is(asGuest.body.permissions.view, true);
  assert.is(asGuest.body.permissions.listMembers, false);
  await assertGuarded(t, fx, 'GET', `/v1/orgs/${fx.org.id}`);
  assertErrorIs(await t.call('GET', '/v1/orgs/doesNotExist', { token: fx.admin.token }), 404, 'Organization doesNotExist not found');
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}?bogus=1`, { token: fx.admin.token }), 400, 'Invalid query parameter: "bogus" is not an accepted field');
});

test('PATCH /orgs/{id} updates fields and validates them', async () => {
  const path = `/v1/orgs/${fx.org.id}`;
  const patched = await t.call('PATCH', path, {
    token: fx.admin.token,
    body: {
      title: 'Acme Documentation',
      emailDomains: ['Acme.example', 'docs.acme.example'],
      hostname: 'acme-docs',
      defaultRole: 'comment',
      logo: 'https://acme.example/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [fx.editor.id] }] },
    },
  });
  assert.is(patched.status, 200);
  assert.is(patched.body.title, 'Acme Documentation');
  assert.equal(patched.body.emailDomains, ['acme.example', 'docs.acme.example']);
  assert.is(patched.body.hostname, 'acme-docs');
  assert.is(patched.body.defaultRole, 'comment');
  assert.is(patched.body.urls.logo, 'https://acme.example/logo.png');
  assert.is(patched.body.sso, true);
  assert.is(patched.body.ai, true);
  assert.is(patched.body.inviteLinks, false);
  assert.equal(patched.body.mergeRules, { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [fx.editor.id] }] });
  const reread = await t.call('GET', path, { token: fx.admin.token });
  assert.equal(
    [
      reread.body.title,
      reread.body.emailDomains,
      reread.body.hostname,
      reread.body.defaultRole,
      reread.body.urls.logo,
      reread.body.sso,
      reread.body.ai,
      reread.body.inviteLinks,
      reread.body.mergeRules,
    ],
    [
      'Acme Documentation',
      ['acme.example', 'docs.acme.example'],
      'acme-docs',
      'comment',
      'https://acme.example/logo.png',
      true,
      true,
      false,
      { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [fx.editor.id] }] },
    ],
    'every patched field is stored',
  );
  assert.equal(reread.body, patched.body, 'the PATCH answers what a later GET reads');

  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: { title: 'A'.repeat(256) } }), 400, 'Invalid request body: "title" must NOT have more than 255 characters');
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, body: { emailDomains: ['not a domain'] } }),
    400,
    'Invalid request body: "emailDomains[0]" must match pattern "^(?=.{3,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$"',
  );
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, body: { defaultRole: 'owner' } }),
    400,
    'Invalid request body: "defaultRole" must be one of "admin", "create", "review", "edit", "comment", "read", null',
  );
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, body: { defaultContent: { type: 'site', site: 'nope' } } }),
    400,
    'Invalid default content: site nope does not exist in this organization',
  );
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [fx.outsider.id] }] } } }),
    400,
    `Invalid mergeRules: ${fx.outsider.id} is not a member of the organization`,
  );
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass' }] } } }),
    400,
    'Invalid mergeRules: rule "allow_bypass" needs a non-empty "users" list',
  );
  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: { unknownField: 1 } }), 400, 'Invalid request body: "unknownField" is not an accepted field');
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, body: { mergeRules: { type: 'none', rules: [{ rule: 'allow_bypass', users: ['nobody'] }] } } }),
    400,
    'Invalid mergeRules: "rules" goes only with type "rules"',
  );
  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: { mergeRules: { type: 'rules' } } }), 400, 'Invalid mergeRules: type "rules" needs a "rules" list');
  assertErrorIs(
    await t.call('PATCH', path, { token: fx.admin.token, raw: '{"title":', headers: { 'content-type': 'application/json' } }),
    400,
    'Malformed JSON in request body: Unexpected end of JSON input',
  );
  await assertGuarded(t, fx, 'PATCH', path, { body: { title: 'Hacked' }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });

  const other = await t.call('POST', '/v1/orgs', { token: fx.outsider.token, body: { title: 'Hostname Thief' } });
  assertErrorIs(await t.call('PATCH', `/v1/orgs/${other.body.id}`, { token: fx.outsider.token, body: { hostname: 'acme-docs' } }), 409, 'Hostname "acme-docs" is already used by another organization');
  assert.is((await t.call('GET', path, { token: fx.admin.token })).body.title, 'Acme Documentation', 'failed patches changed nothing');
  assertErrorIs(await t.call('PATCH', '/v1/orgs/doesNotExist', { token: fx.admin.token, body: { title: 'Nope' } }), 404, 'Organization doesNotExist not found');
});

test('POST /orgs/{id}/join admits a verified user of an accepted email domain', async () => {
  const org = (await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Joinable' } })).body;
  await t.call('PATCH', `/v1/orgs/${org.id}`, { token: fx.admin.token, body: { emailDomains: ['joinable.example'], defaultRole: 'comment' } });
  const colleague = await t.user('sam@joinable.example');
  assert.is((await t.call('POST', `/v1/orgs/${org.id}/join`, { token: colleague.token })).status, 204);
  const member = await t.call('GET', `/v1/orgs/${org.id}/members/${colleague.id}`, { token: colleague.token });
  assert.is(member.body.role, 'comment');
  assert.is((await t.call('POST', `/v1/orgs/${org.id}/join`, { token: colleague.token })).status, 204, 'joining twice is harmless');

  const unverified = await t.user('kim@joinable.example', { verified: false });
  assertErrorIs(await t.call('POST', `/v1/orgs/${org.id}/join`, { token: unverified.token }), 400, "Your email address kim@joinable.example is not verified, so its domain can't be used to join");
  assertErrorIs(await t.call('POST', `/v1/orgs/${org.id}/join`, { token: fx.outsider.token }), 400, `Your email domain "example.com" is not one that organization ${org.id} accepts`);
  assertErrorIs(await t.call('POST', `/v1/orgs/${org.id}/join`), 401, 'Authentication required: send an Authorization: Bearer <token> header');
  assertErrorIs(await t.call('POST', '/v1/orgs/doesNotExist/join', { token: colleague.token }), 400, 'Your email domain "joinable.example" is not one that organization doesNotExist accepts');
});

test('GET /email-domains/{domain}/orgs lists organizations accepting the caller’s domain', async () => {
  const org = (await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Domain Owner' } })).body;
  await t.call('PATCH', `/v1/orgs/${org.id}`, { token: fx.admin.token, body: { emailDomains: ['lookup.example'] } });
  const person = await t.user('lee@lookup.example');
  const found = await t.call('GET', '/v1/email-domains/lookup.example/orgs', { token: person.token });
  assert.is(found.status, 200);
  assert.equal(
    found.body.organizations.map((o: { id: string }) => o.id),
    [org.id],
  );
  assert.is(found.body.organizations[0].permissions.view, false, 'not a member yet');
  assert.equal((await t.call('GET', '/v1/email-domains/LOOKUP.example/orgs', { token: person.token })).body.organizations.length, 1);
  assertErrorIs(await t.call('GET', '/v1/email-domains/lookup.example/orgs', { token: fx.reader.token }), 403, 'You can look up organizations only for your own email domain');
  const unverified = await t.user('pat@lookup.example', { verified: false });
  assertErrorIs(await t.call('GET', '/v1/email-domains/lookup.example/orgs', { token: unverified.token }), 403, "Your email address pat@lookup.example is not verified, so its domain can't be used");
  assertErrorIs(await t.call('GET', '/v1/email-domains/not_a_domain/orgs', { token: person.token }), 400, '"not_a_domain" is not an email domain');
  assertErrorIs(await t.call('GET', '/v1/email-domains/lookup.example/orgs'), 401, 'Authentication required: send an Authorization: Bearer <token> header');
});

test('agent instructions: empty until set, then the stored document', async () => {
  const path = `/v1/orgs/${fx.org.id}/agent-instructions`;
  const initial = await t.call('GET', path, { token: fx.reader.token });
  assert.is(initial.status, 200);
  assert.equal(initial.body.instructions.nodes, []);
  const document = {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Answer in English.', marks: [] }] }] }],
  };
  const put = await t.call('PUT', path, { token: fx.admin.token, body: { instructions: document } });
  assert.is(put.status, 200);
  assert.equal(put.body.instructions, document);
  assert.is(put.body.updatedBy, fx.admin.id);
  assert.equal((await t.call('GET', path, { token: fx.reader.token })).body.instructions, document);

  assertErrorIs(await t.call('PUT', path, { token: fx.admin.token, body: { instructions: { object: 'paragraph' } } }), 400, 'Invalid request body: "instructions.nodes" is required');
  assertErrorIs(await t.call('PUT', path, { token: fx.admin.token, body: {} }), 400, 'Invalid request body: "instructions" is required');
  await assertGuarded(t, fx, 'PUT', path, { body: { instructions: document }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  assert.equal((await t.call('GET', path, { token: fx.reader.token })).body.instructions, document, 'refused writes changed nothing');
  await assertGuarded(t, fx, 'GET', path, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest') } });
  assertErrorIs(await t.call('GET', '/v1/orgs/doesNotExist/agent-instructions', { token: fx.admin.token }), 404, 'Organization doesNotExist not found');
});

test('POST /orgs/{id}/ping records when the member was last seen', async () => {
  const path = `/v1/orgs/${fx.org.id}/ping`;
  const pinged = await t.call('POST', path, { token: fx.guest.token });
  assert.is(pinged.status, 200);
  assertErrorIs(await t.call('POST', path, { token: fx.guest.token, body: { anything: 1 } }), 400, 'This operation takes no request body');
  const member = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.guest.id}`, { token: fx.guest.token });
  assert.type(member.body.lastSeenAt, 'string');
  await assertGuarded(t, fx, 'POST', path);
  assertErrorIs(await t.call('POST', '/v1/orgs/doesNotExist/ping', { token: fx.admin.token }), 404, 'Organization doesNotExist not found');
});

test.run();
