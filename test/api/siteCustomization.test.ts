import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite("site customization: the site's settings and the overrides of its site spaces");
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

const sites = () => `/v1/orgs/${fx.org.id}/sites`;

async function siteWithTwoSpaces() {
  const spaces = await Promise.all(
    ['Guide', 'Guide v2'].map(
      async (title) => (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body.id as string,
    ),
  );
  const site = await t.call('POST', sites(), { token: fx.admin.token, body: { title: 'Docs', spaces } });
  assert.is(site.status, 201, JSON.stringify(site.body));
  const siteSpaces = (await t.call('GET', `${sites()}/${site.body.id}/site-spaces`, { token: fx.admin.token })).body.items as Array<{ id: string }>;
  return { id: site.body.id as string, siteSpaces: siteSpaces.map((siteSpace) => siteSpace.id) };
}

test("a site shows upstream's defaults until its settings are replaced whole; the body is upstream's shape, closed", async () => {
  const site = await siteWithTwoSpaces();
  const path = `${sites()}/${site.id}/customization`;
  const defaults = await t.call('GET', path, { token: fx.reader.token });
  assert.is(defaults.status, 200, JSON.stringify(defaults.body));
  assert.equal([defaults.body.title, defaults.body.styling.theme, defaults.body.themes], ['Docs', 'clean', { default: 'light', toggeable: true }]);

  const settings = structuredClone(defaults.body);
  settings.title = 'Handbook';
  settings.styling.primaryColor = { light: '#0A7B83', dark: '#4FD1C5' };
  settings.header.links = [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [] }];
  settings.announcement = { enabled: true, message: 'Version 2 is out', style: 'info' };
  const replaced = await t.call('PUT', path, { token: fx.creator.token, body: settings });
  assert.is(replaced.status, 200, JSON.stringify(replaced.body));
  assert.equal((await t.call('GET', path, { token: fx.reader.token })).body, settings);

  const refusals: Array<[unknown, string]> = [
    [{ ...settings, surprise: true }, 'Invalid request body: "surprise" is not an accepted field'],
    [
      { ...settings, styling: { ...settings.styling, primaryColor: { light: 'teal', dark: '#000' } } },
      'Invalid request body: "styling.primaryColor.light" must match pattern "^#(?:[0-9a-fA-F]{3}){1,2}$"',
    ],
    [{ ...settings, themes: undefined }, 'Invalid request body: "themes" is required'],
  ];
  for (const [body, message] of refusals) {
    const refused = await t.call('PUT', path, { token: fx.admin.token, body });
    assert.equal([refused.status, refused.body.error?.message], [400, message]);
  }
  assert.is((await t.call('PUT', path, { token: fx.editor.token, body: settings })).status, 403, 'changing a site takes the role that creates');
  assert.equal((await t.call('GET', path, { token: fx.reader.token })).body, settings, 'nothing half-written');
});

test('a site space overrides some fields; a null resets one; the overrides go with DELETE; the published profile shows them', async () => {
  const site = await siteWithTwoSpaces();
  const [first, second] = site.siteSpaces as [string, string];
  const of = (siteSpace: string) => `${sites()}/${site.id}/site-spaces/${siteSpace}/customization`;

  const plain = await t.call('GET', of(first), { token: fx.reader.token });
  assert.is(plain.status, 200, JSON.stringify(plain.body));
  assert.equal(plain.body, (await t.call('GET', `${sites()}/${site.id}/customization`, { token: fx.reader.token })).body, "the site's own, until overridden");
  const overridden = await t.call('PATCH', of(first), { token: fx.creator.token, body: { title: 'Guide, version 1', styling: { primaryColor: { light: '#AA0000', dark: '#FF5555' } } } });
  assert.is(overridden.status, 200, JSON.stringify(overridden.body));
  assert.equal([overridden.body.title, overridden.body.styling.primaryColor, overridden.body.styling.theme], ['Guide, version 1', { light: '#AA0000', dark: '#FF5555' }, 'clean']);
  assert.equal((await t.call('GET', of(second), { token: fx.reader.token })).body, plain.body, "the other site space keeps the site's");

  // The site's own settings change under the override: the site space follows them where it overrides nothing.
  const settings = (await t.call('GET', `${sites()}/${site.id}/customization`, { token: fx.admin.token })).body;
  await t.call('PUT', `${sites()}/${site.id}/customization`, { token: fx.admin.token, body: { ...settings, styling: { ...settings.styling, corners: 'straight' } } });
  const followed = (await t.call('GET', of(first), { token: fx.reader.token })).body;
  assert.equal([followed.styling.corners, followed.styling.primaryColor.light], ['straight', '#AA0000']);

  const published = await t.call('POST', `${sites()}/${site.id}/publish`, { token: fx.admin.token });
  const visitor = (await t.call('POST', '/v1/urls/published', { body: { url: published.body.urls.published } })).body.apiToken as string;
  const profile = await t.call('GET', `${sites()}/${site.id}/published`, { headers: { authorization: `Bearer ${visitor}` } });
  assert.is(profile.status, 200, JSON.stringify(profile.body));
  assert.equal(
    [profile.body.customizations.site.styling.corners, profile.body.customizations.siteSpaces[first].title, profile.body.customizations.siteSpaces[second].title],
    ['straight', 'Guide, version 1', 'Docs'],
  );

  const reset = await t.call('PATCH', of(first), { token: fx.creator.token, body: { title: null, styling: { primaryColor: null } } });
  assert.equal([reset.status, reset.body.title, reset.body.styling.primaryColor], [200, 'Docs', plain.body.styling.primaryColor]);
  assert.is((await t.call('DELETE', of(first), { token: fx.creator.token })).status, 204, 'every override reset: none left');
  await t.call('PATCH', of(first), { token: fx.creator.token, body: { styling: { theme: 'bold' } } });
  const after = await t.call('GET', `${sites()}/${site.id}/published`, { headers: { authorization: `Bearer ${visitor}` } });
  assert.is(after.body.customizations.siteSpaces[first].styling.theme, 'bold', 'the published profile is not served stale');

  assert.is((await t.call('PATCH', of(first), { token: fx.creator.token, body: { styling: { theme: 'loud' } } })).status, 400);
  // A reset of an override the site space never had resets nothing (the fuzzer found it took the site's locale away).
  const resetUnset = await t.call('PATCH', of(second), { token: fx.creator.token, body: { internationalization: { locale: null }, pdf: { enabled: null } } });
  assert.equal([resetUnset.status, resetUnset.body.internationalization, resetUnset.body.pdf], [200, { locale: 'en' }, { enabled: true }]);
  assert.is((await t.call('DELETE', of(second), { token: fx.creator.token })).status, 204, 'and leaves no override behind');
  assert.is((await t.call('PATCH', of(first), { token: fx.creator.token })).status, 400, 'the body is required');
  // A favicon is one of several shapes: an override replaces the site's whole (the fuzzer found an emoji and an icon merged into neither).
  await t.call('PUT', `${sites()}/${site.id}/customization`, { token: fx.admin.token, body: { ...settings, favicon: { emoji: '📘' } } });
  const icon = { light: 'https://docs.example.com/icon.png', dark: 'https://docs.example.com/icon-dark.png' };
  const favicon = await t.call('PATCH', of(second), { token: fx.creator.token, body: { favicon: { icon } } });
  assert.equal([favicon.status, favicon.body.favicon], [200, { icon }]);
  assert.is((await t.call('DELETE', of(first), { token: fx.creator.token })).status, 205);
  assert.is((await t.call('DELETE', of(first), { token: fx.creator.token })).status, 204);
  assert.is((await t.call('GET', of('nosuchsitespace'), { token: fx.reader.token })).status, 404);
  assert.is((await t.call('PATCH', of('nosuchsitespace'), { token: fx.admin.token, body: { title: 'Nowhere' } })).status, 404);
});

test.run();
