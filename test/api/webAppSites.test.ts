import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser as Browser, signedInBrowser } from '../helpers/formBrowser.js';
import { givePasswords } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * A docs site in the web app, over HTTP: its settings, share links, content and look, each form
 * under the policy of the API's operation; the look previewed unsaved in a frame the site lets
 * only this site's pages show, then saved.
 */
const test = suite('the web app: a docs site’s settings, share links, content and look');
let t: TestServer;
let fx: OrganizationFixture;
let admin: Browser;
let sitePage: string;
let siteId: string;
let second: { id: string };
const password = 'correct horse battery staple';

const signedIn = (email: string) => signedInBrowser(t.url, email, password);

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    const make = siteMaker(() => ({ t, fx }));
    const first = await make.space('Guides');
    second = await make.space('Reference');
    siteId = (await make.publishedSite('Acme docs', [first.id])).id;
    await givePasswords(t.dataDir, [fx.admin, fx.reader], password);
    admin = await signedIn(fx.admin.email);
    sitePage = `/app/o/${fx.org.id}/sites/${siteId}`;
  }),
);
test.after(async () => t?.close());

const csrf = async (browser: Browser) => Browser.field((await browser.get(sitePage)).html, 'csrf');
const api = async () => (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${siteId}`, { token: fx.admin.token })).body;

test('settings: title and visibility saved through the API’s rules; a reader is shown and allowed none of it', async () => {
  const page = await admin.get(sitePage);
  for (const section of ['Settings', 'Share links', 'Content', 'Look']) assert.match(page.html, `>${section}</h2>`);
  assert.is((await admin.post(`${sitePage}/settings`, { csrf: await csrf(admin), title: 'Acme handbook', visibility: 'everyone' })).status, 400);
  assert.is((await api()).title, 'Acme docs', 'nothing half-written');
  assert.is((await admin.post(`${sitePage}/settings`, { csrf: await csrf(admin), title: 'Acme handbook', visibility: 'unlisted' })).status, 303);
  const saved = await api();
  assert.equal([saved.title, saved.visibility], ['Acme handbook', 'unlisted']);

  const reader = await signedIn(fx.reader.email);
  const shown = await reader.get(sitePage);
  assert.is(shown.status, 200);
  assert.not.match(shown.html, '>Settings</h2>');
  assert.not.match(shown.html, 'Save look');
  assert.is((await reader.post(`${sitePage}/settings`, { csrf: await csrf(reader), title: 'Mine', visibility: 'public' })).status, 403);
  assert.is(
    (await reader.post(`${sitePage}/customization`, { csrf: await csrf(reader), title: 'Mine', theme: 'bold', primaryLight: '#000000', primaryDark: '#ffffff', defaultMode: 'dark' })).status,
    403,
  );
});

test('share links: made, shown with their address, deactivated and deleted', async () => {
  assert.is((await admin.post(`${sitePage}/share-links`, { csrf: await csrf(admin), name: 'Partners' })).status, 303);
  const links = async () => (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${siteId}/share-links`, { token: fx.admin.token })).body.items;
  const [link] = await links();
  assert.is(link.name, 'Partners');
  const page = (await admin.get(sitePage)).html;
  assert.match(page, new RegExp(`Partners: <code class="clone">[^<]+/sites/${siteId}/\\?share=`));
  assert.is((await admin.post(`${sitePage}/share-links/toggle`, { csrf: await csrf(admin), id: link.id, active: 'false' })).status, 303);
  assert.is((await links())[0].active, false);
  assert.is((await admin.post(`${sitePage}/share-links/delete`, { csrf: await csrf(admin), id: link.id })).status, 303);
  assert.is((await links()).length, 0);
});

test('content: a space added to the site and removed again', async () => {
  const siteSpaces = async () => (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${siteId}/site-spaces`, { token: fx.admin.token })).body.items as Array<{ id: string; space: { id: string } }>;
  assert.match((await admin.get(sitePage)).html, `<option value="${second.id}">Reference</option>`);
  assert.is((await admin.post(`${sitePage}/site-spaces`, { csrf: await csrf(admin), space: second.id })).status, 303);
  const added = (await siteSpaces()).find((siteSpace) => siteSpace.space.id === second.id);
  assert.ok(added, 'the space is on the site');
  assert.match((await admin.get(sitePage)).html, 'Reference <span class="muted">/');
  assert.is((await admin.post(`${sitePage}/site-spaces/remove`, { csrf: await csrf(admin), id: added.id })).status, 303);
  assert.not.ok((await siteSpaces()).some((siteSpace) => siteSpace.space.id === second.id));
});

test('look: previewed unsaved in a frame only this site may show, refused when wrong, then saved', async () => {
  const look = { title: 'Acme Handbook', theme: 'bold', primaryLight: '#aa2200', primaryDark: '#ffaa88', defaultMode: 'dark' };
  const bad = await admin.post(`${sitePage}/preview`, { csrf: await csrf(admin), ...look, primaryLight: 'red' });
  assert.is(bad.status, 400);
  assert.match(bad.html, 'The primary colour (light) is a colour like #346DDB');

  const preview = await admin.post(`${sitePage}/preview`, { csrf: await csrf(admin), ...look });
  assert.is(preview.status, 200);
  assert.match(preview.html, 'not saved yet');
  const frame = /<iframe class="preview" src="([^"]+)" title="Preview of the site">/.exec(preview.html)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(frame, 'the preview frame');
  // The site moves the key into its cookie and sends the frame to the same page without it, as it does any preview URL.
  const moved = await fetch(`${t.url}${frame}`, { redirect: 'manual' });
  assert.is(moved.status, 302);
  const cookie = moved.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const shown = await fetch(new URL(moved.headers.get('location')!, t.url), { headers: { cookie } });
  assert.is(shown.status, 200);
  assert.match(shown.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
  const html = await shown.text();
  assert.match(html, 'Acme Handbook', 'the draft title');
  assert.match(html, /--primary-light:#[0-9a-f]{6}/);
  assert.not.match(html, '--primary-light:#346ddb', 'not the saved colour');
  const published = await fetch(`${t.url}/sites/${siteId}/`);
  assert.match(published.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, 'the published site is framed by no one');
  assert.not.match(await published.text(), 'Acme Handbook', 'readers still see the saved look');

  const asJson = await fetch(`${t.url}${sitePage}/preview`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    body: new URLSearchParams({ csrf: await csrf(admin), ...look }).toString(),
  });
  assert.is(asJson.status, 200);
  assert.match((await asJson.json()).url, new RegExp(`^/sites/${siteId}/\\?preview=`));

  assert.is((await admin.post(`${sitePage}/customization`, { csrf: await csrf(admin), ...look })).status, 303);
  const saved = (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${siteId}/customization`, { token: fx.admin.token })).body;
  assert.equal([saved.title, saved.styling.theme, saved.styling.primaryColor, saved.themes.default], ['Acme Handbook', 'bold', { light: '#aa2200', dark: '#ffaa88' }, 'dark']);
  assert.is(saved.styling.font, 'Inter', 'the rest of the customization kept');
});

test.run();
