import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { ok } from '../helpers/gitClient.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('published content: URL lookups and the site tokens they mint');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

const sites = () => `/v1/orgs/${fx.org.id}/sites`;

const { space, publishedSite } = siteMaker(() => ({ t, fx }));

const lookup = (url: string, extra: Record<string, unknown> = {}) => t.call('POST', '/v1/urls/published', { body: { url, ...extra } });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const read = (path: string, token: string) => t.call('GET', path, { headers: bearer(token) });

function decoded(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

test('a published URL resolves, without a token, to its site, site space and page path, with a site token (a JWT the renderer can decode)', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const base = site.urls.published;
  const found = await lookup(`${base}quick-start?utm=x`, { cacheBust: '123', visitor: { type: 'human' } });
  assert.is(found.status, 200, JSON.stringify(found.body));
  const path = new URL(base).pathname;
  assert.equal(
    {
      site: found.body.site,
      space: found.body.space,
      pathname: found.body.pathname,
      basePath: found.body.basePath,
      siteBasePath: found.body.siteBasePath,
      organization: found.body.organization,
      complete: found.body.complete,
      canonicalUrl: found.body.canonicalUrl,
    },
    { site: site.id, space: guide.id, pathname: 'quick-start', basePath: path, siteBasePath: path, organization: fx.org.id, complete: true, canonicalUrl: `${base}quick-start` },
  );
  const claims = decoded(found.body.apiToken);
  assert.equal(
    { kind: claims.kind, site: claims.site, siteSpace: claims.siteSpace, space: claims.space, organization: claims.organization, claims: claims.claims },
    { kind: 'site', site: site.id, siteSpace: found.body.siteSpace, space: guide.id, organization: fx.org.id, claims: {} },
  );
  assert.ok(Number(claims.exp) - Number(claims.iat) === 3600, 'a short-lived token');
  assert.ok(Number(claims.iat) % 900 === 0 && Date.now() / 1000 - Number(claims.iat) < 900, 'issued as of its 15-minute window');
  // Two lookups in a row, once more if a window's end fell between them.
  let [first, second] = [found.body.apiToken as string, (await lookup(`${base}quick-start`)).body.apiToken as string];
  if (decoded(second).iat !== claims.iat) [first, second] = [second, (await lookup(`${base}quick-start`)).body.apiToken as string];
  assert.is(second, first, 'the same place within a window: the same token, which the renderer caches pages by');
  const byQuery = await t.call('GET', `/v1/urls/published?url=${encodeURIComponent(base)}`);
  assert.is(byQuery.status, 200);
  assert.is(byQuery.body.pathname, '');

  for (const url of [`${base.replace(site.id, 'nosuchsite')}`, 'http://elsewhere.example.com/', 'not a url']) {
    const missing = await lookup(url);
    assert.is(missing.status, 404, url);
  }
});

test("a URL lookup never echoes the URL's user name and password, and bounds the unsigned claims a site token will carry", async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const withUserinfo = site.urls.published.replace('://', '://someone:secret@');
  const found = await lookup(`${withUserinfo}quick-start`);
  assert.is(found.status, 200, JSON.stringify(found.body));
  assert.is(found.body.canonicalUrl, `${site.urls.published}quick-start`);
  assert.not.match(JSON.stringify(found.body), 'secret');
  const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`claim${i}`, 'x'.repeat(100)]));
  const refused = await lookup(`${site.urls.published}quick-start`, { visitor: { unsignedClaims: many } });
  assert.equal([refused.status, refused.body.error?.message], [400, '"visitor.unsignedClaims" is longer than 4096 characters as JSON: a site token carries them, so they stay small']);
  assert.is((await lookup(`${site.urls.published}quick-start`, { visitor: { unsignedClaims: { beta: true } } })).status, 200);
});

test('complete: a URL that names its variant, or leaves none to name, is complete; one that falls back to the default while others exist is not', async () => {
  const guide = await space('Guide');
  const single = await publishedSite('Single', [guide.id]);
  assert.is((await lookup(single.urls.published)).body.complete, true, 'one variant: nothing more to name');
  const other = await space('Guide v2');
  const site = await publishedSite('Variants', [guide.id, other.id]);
  const siteSpaces = (await t.call('GET', `${sites()}/${site.id}/site-spaces`, { token: fx.admin.token })).body.items as Array<{ path: string; default: boolean }>;
  const second = siteSpaces.find((siteSpace) => !siteSpace.default)!;
  const root = await lookup(site.urls.published);
  assert.is(root.body.complete, false, 'the default variant while another exists: a longer URL may name it');
  const named = await lookup(`${site.urls.published}${second.path}/quick-start`);
  assert.equal([named.body.space, named.body.pathname, named.body.complete], [other.id, 'quick-start', true]);
});

test('a site token reads exactly its site published content: spaces it shows, their primary history; no other space, no change request, no write, no organization route', async () => {
  const guide = await space('Guide');
  const hidden = await space('Internal');
  const site = await publishedSite('Docs', [guide.id]);
  const token = (await lookup(site.urls.published)).body.apiToken as string;

  assert.is((await read(`/v1/spaces/${guide.id}`, token)).status, 200);
  const pages = await read(`/v1/spaces/${guide.id}/content/pages`, token);
  assert.is(pages.status, 200);
  assert.ok(pages.body.pages.length > 0);
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${guide.revision}/pages`, token)).status, 200, 'a revision of the primary history');
  assert.is((await read(`/v1/spaces/${guide.id}/content/page/${pages.body.pages[0].id}?format=markdown`, token)).status, 200);

  const changeRequest = (await t.call('POST', `/v1/spaces/${guide.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Draft' } })).body;
  await t.call('POST', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'insert_page', title: 'Secret', document: { markdown: 'Not yet.\n' } }] },
  });
  const draft = (await t.call('GET', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}`, { token: fx.editor.token })).body.revision;
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${draft}/pages`, token)).status, 404, 'a change request commit is not published');
  assert.is((await read(`/v1/spaces/${guide.id}/change-requests/${changeRequest.id}`, token)).status, 403);
  // Routes match whatever the case of the path: so does the refusal.
  for (const path of [`Change-Requests/${changeRequest.id}`, 'CHANGE-REQUESTS', `change-Requests/${changeRequest.number}/content/pages`]) {
    assert.is((await read(`/v1/spaces/${guide.id}/${path}`, token)).status, 403, path);
  }
  assert.is((await read(`/v1/spaces/${guide.id}/git/info`, token)).status, 403, 'its Git Sync settings');
  for (const path of ['comments', 'Comments', `change-requests/${changeRequest.id}/comments`]) {
    const comments = await read(`/v1/spaces/${guide.id}/${path}`, token);
    assert.is(comments.status, 403, path);
    assert.match(comments.body.error.message, 'comments are not published');
  }
  assert.is((await read(`/v1/spaces/${hidden.id}`, token)).status, 404, 'a space no site space shows');
  assert.is((await read(`/v1/orgs/${fx.org.id}`, token)).status, 403);
  assert.is((await read('/v1/user', token)).status, 403);
  const write = await t.call('POST', `/v1/spaces/${guide.id}/change-requests`, { headers: bearer(token), body: { subject: 'By a visitor' } });
  assert.is(write.status, 403);
  assert.match(write.body.error.message, 'A site token only reads the published content of its site');

  const tampered = `${token.slice(0, -4)}AAAA`;
  const refused = await read(`/v1/spaces/${guide.id}`, tampered);
  assert.is(refused.status, 401);
  const [header, , signature] = token.split('.');
  const forged = `${header}.${Buffer.from(JSON.stringify({ ...decoded(token), space: hidden.id })).toString('base64url')}.${signature}`;
  assert.is((await read(`/v1/spaces/${hidden.id}`, forged)).status, 401, 'claims changed without the key');
});

test('another site token reads nothing of this site; unpublishing stops its tokens at once', async () => {
  const guide = await space('Guide');
  const other = await space('Other');
  const site = await publishedSite('Docs', [guide.id]);
  const otherSite = await publishedSite('Other docs', [other.id]);
  const token = (await lookup(site.urls.published)).body.apiToken as string;
  const otherToken = (await lookup(otherSite.urls.published)).body.apiToken as string;
  assert.is((await read(`/v1/spaces/${guide.id}`, otherToken)).status, 404);
  assert.is((await read(`/v1/spaces/${other.id}`, token)).status, 404);
  assert.is((await t.call('POST', `${sites()}/${site.id}/unpublish`, { token: fx.admin.token })).status, 200);
  assert.is((await read(`/v1/spaces/${guide.id}`, token)).status, 404);
  assert.is((await lookup(site.urls.published)).status, 404);
});

test('sections and variants: the longest published prefix wins; the default otherwise', async () => {
  const guide = await space('Guide');
  const api = await space('API');
  const site = await publishedSite('Docs', [guide.id]);
  const section = await t.call('POST', `${sites()}/${site.id}/sections`, { token: fx.admin.token, body: { spaceId: api.id, title: 'API reference' } });
  assert.is(section.status, 201, JSON.stringify(section.body));
  const sections = (await t.call('GET', `${sites()}/${site.id}/sections`, { token: fx.admin.token })).body.items as Array<{ id: string; path: string; default: boolean }>;
  const apiSection = sections.find((candidate) => !candidate.default)!;
  const base = site.urls.published;
  const inApi = await lookup(`${base}${apiSection.path}/quick-start/configuration`);
  assert.is(inApi.status, 200, JSON.stringify(inApi.body));
  assert.equal(
    [inApi.body.space, inApi.body.siteSection, inApi.body.pathname, inApi.body.basePath],
    [api.id, apiSection.id, 'quick-start/configuration', `${new URL(base).pathname}${apiSection.path}/`],
  );
  const inDefault = await lookup(`${base}faq`);
  assert.equal([inDefault.body.space, inDefault.body.pathname], [guide.id, 'faq']);
});

test('a share-link site: its URL needs an active key of its own links; a revoked link stops its tokens', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Private docs', [guide.id], 'share-link');
  assert.is((await lookup(site.urls.published ?? `${t.url}/sites/${site.id}/`)).status, 404);
  const link = await t.call('POST', `${sites()}/${site.id}/share-links`, { token: fx.admin.token, body: { name: 'Partners' } });
  const shared = link.body.urls.published as string;
  const found = await lookup(shared);
  assert.is(found.status, 200, JSON.stringify(found.body));
  assert.is(found.body.shareKey, new URL(shared).searchParams.get('share'));
  assert.not.match(found.body.canonicalUrl, 'share=', 'the key is not in the canonical URL');
  assert.is((await read(`/v1/spaces/${guide.id}`, found.body.apiToken)).status, 200);
  await t.call('PATCH', `${sites()}/${site.id}/share-links/${link.body.id}`, { token: fx.admin.token, body: { active: false } });
  assert.is((await read(`/v1/spaces/${guide.id}`, found.body.apiToken)).status, 404);
  assert.is((await lookup(shared)).status, 404);
});

test("a share-link site's key as the first path segment (GitBook's form, which its renderer looks up without the query): the base paths keep it, the canonical URL doesn't", async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Partner docs', [guide.id], 'share-link');
  const link = await t.call('POST', `${sites()}/${site.id}/share-links`, { token: fx.admin.token, body: { name: 'Renderer' } });
  const shared = new URL(link.body.urls.published as string);
  const key = shared.searchParams.get('share')!;
  const base = `${shared.origin}${shared.pathname}`;
  const found = await lookup(`${base}${key}/quick-start`);
  assert.is(found.status, 200, JSON.stringify(found.body));
  const keyed = `/sites/${site.id}/${key}/`;
  assert.equal([found.body.shareKey, found.body.pathname, found.body.siteBasePath, found.body.basePath, found.body.canonicalUrl], [key, 'quick-start', keyed, keyed, `${base}quick-start`]);
  assert.is(decoded(found.body.apiToken).site, site.id);
  assert.is((await read(`/v1/spaces/${guide.id}`, found.body.apiToken)).status, 200);
  const root = await lookup(`${base}${key}`);
  assert.equal([root.status, root.body.pathname, root.body.siteBasePath], [200, '', keyed]);

  const redirect = await t.call('POST', `${sites()}/${site.id}/redirects`, {
    token: fx.admin.token,
    body: { source: '/old-start', destination: { kind: 'site-space', siteSpaceId: found.body.siteSpace } },
  });
  assert.ok(redirect.status < 300, JSON.stringify(redirect.body));
  const moved = await lookup(`${base}${key}/old-start`);
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.equal([moved.body.target, moved.body.redirect], ['content', base + key + '/'], 'the redirect keeps the key where it was, in the path');

  assert.is((await lookup(`${base}not-a-key/quick-start`)).status, 404, 'a segment that is no active key of the site');
  await t.call('PATCH', `${sites()}/${site.id}/share-links/${link.body.id}`, { token: fx.admin.token, body: { active: false } });
  assert.is((await lookup(`${base}${key}/quick-start`)).status, 404, 'a revoked link');
});
test("the renderer's reads with a site token: the published site, its structure, a page by path in the revision and its Document", async () => {
  const guide = await space('Guide');
  const beta = await space('Beta');
  const site = await publishedSite('Docs', [guide.id]);
  const added = await t.call('POST', `${sites()}/${site.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: beta.id } });
  assert.is(added.status, 201, JSON.stringify(added.body));
  const condition = await t.call('PATCH', `${sites()}/${site.id}/site-spaces/${added.body.id}`, { token: fx.admin.token, body: { condition: 'visitor.claims.unsigned.beta == true', path: 'beta' } });
  assert.is(condition.status, 200, JSON.stringify(condition.body));

  const anonymous = await lookup(`${site.urls.published}quick-start`);
  const token = anonymous.body.apiToken as string;
  const profile = await read(`${sites()}/${site.id}/published`, token);
  assert.is(profile.status, 200, JSON.stringify(profile.body));
  assert.equal(
    profile.body.structure.structure.map((siteSpace: { space: { id: string } }) => siteSpace.space.id),
    [guide.id],
    'the beta variant is hidden from a visitor without the claim',
  );
  const structure = await read(`${sites()}/${site.id}/structure`, token);
  assert.is(structure.status, 200);
  assert.is(structure.body.type, 'siteSpaces');
  assert.is(structure.body.structure.length, 1);
  assert.is((await read(`/v1/spaces/${beta.id}`, token)).status, 404, 'nor can its token read the hidden space');
  assert.is((await t.call('GET', `${sites()}/${site.id}/structure`, { token: fx.admin.token })).body.structure.length, 2, 'a member sees the whole structure');

  const betaVisitor = await lookup(`${site.urls.published}beta/faq`, { visitor: { unsignedClaims: { beta: true } } });
  assert.equal([betaVisitor.body.space, betaVisitor.body.pathname], [beta.id, 'faq']);
  assert.is((await read(`/v1/spaces/${beta.id}`, betaVisitor.body.apiToken)).status, 200);
  assert.is((await read(`${sites()}/${site.id}/structure`, betaVisitor.body.apiToken)).body.structure.length, 2);

  const otherSite = await publishedSite('Elsewhere', [beta.id]);
  assert.is((await read(`${sites()}/${otherSite.id}/published`, token)).status, 404, "another site's profile");
  assert.is((await read(`${sites()}`, token)).status, 403, "the organization's site list");
  assert.is((await t.call('PATCH', `${sites()}/${site.id}`, { headers: bearer(token), body: { title: 'Mine' } })).status, 403);

  const revision = (await read(`/v1/spaces/${guide.id}`, token)).body.revision as string;
  const byPath = await read(`/v1/spaces/${guide.id}/revisions/${revision}/path/${anonymous.body.pathname}`, token);
  assert.is(byPath.status, 200, JSON.stringify(byPath.body));
  assert.is(byPath.body.path, 'quick-start');
  const document = await read(`/v1/spaces/${guide.id}/revisions/${revision}/page/${byPath.body.id}/document`, token);
  assert.is(document.status, 200, JSON.stringify(document.body));
  assert.is(document.body.object, 'document');
  assert.ok(document.body.nodes.length > 0);
  assert.equal(document.body, byPath.body.document, "the Document alone is the page's");
});

test("visitor authentication: the site's publishing key signs visitors in; their claims choose what they see; others go to the fallback URL", async () => {
  const guide = await space('Guide');
  const staffOnly = await space('Staff');
  const site = await publishedSite('Private docs', [guide.id], 'visitor-auth');
  const added = await t.call('POST', `${sites()}/${site.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: staffOnly.id } });
  await t.call('PATCH', `${sites()}/${site.id}/site-spaces/${added.body.id}`, { token: fx.admin.token, body: { condition: 'visitor.claims.role == "staff"', path: 'staff' } });
  const authPath = `${sites()}/${site.id}/publishing/auth`;

  const auth = await t.call('GET', authPath, { token: fx.admin.token });
  assert.is(auth.status, 200, JSON.stringify(auth.body));
  assert.equal([auth.body.object, auth.body.backend, auth.body.fallbackURL], ['publishing-auth', 'custom', undefined]);
  assert.ok(auth.body.privateKey.length >= 32);
  assert.is((await t.call('GET', authPath, { token: fx.editor.token })).status, 403, "the key is for the site's admins");
  const sign = (claims: Record<string, unknown>, key = auth.body.privateKey as string, expires = '1h') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expires).sign(new TextEncoder().encode(key));

  const page = `${site.urls.published}quick-start`;
  const nobody = await lookup(page);
  assert.equal(
    [nobody.status, nobody.body.error?.message],
    [401, `Site ${site.id} admits authenticated visitors only (a JWT signed with its publishing key), and has no fallback URL to send others to`],
  );
  const patched = await t.call('PATCH', authPath, { token: fx.admin.token, body: { backend: 'custom', fallbackURL: 'https://login.example.com/sso?app=docs' } });
  assert.equal([patched.status, patched.body.fallbackURL, patched.body.privateKey], [200, 'https://login.example.com/sso?app=docs', auth.body.privateKey]);
  assert.is((await t.call('PATCH', authPath, { token: fx.admin.token, body: { backend: 'custom', fallbackURL: 'javascript:alert(1)' } })).status, 400);
  assert.equal(
    (await lookup(page)).body,
    { target: 'external', redirect: 'https://login.example.com/sso?app=docs&location=%2Fquick-start' },
    'a visitor without a token is sent to sign in, with where they were going',
  );

  const staff = await lookup(`${site.urls.published}staff/`, { visitor: { jwtToken: await sign({ role: 'staff', name: 'Ada' }) } });
  assert.is(staff.status, 200, JSON.stringify(staff.body));
  assert.is(staff.body.space, staffOnly.id);
  assert.equal(decoded(staff.body.apiToken).claims, { role: 'staff', name: 'Ada' }, "the visitor's signed claims, without the JWT's own");
  assert.is((await read(`/v1/spaces/${staffOnly.id}`, staff.body.apiToken)).status, 200);
  const reader = await t.call('GET', `/v1/urls/published?url=${encodeURIComponent(page)}&visitorAuthToken=${await sign({ role: 'reader' })}`);
  assert.is(reader.status, 200, JSON.stringify(reader.body));
  assert.is((await read(`/v1/spaces/${guide.id}`, reader.body.apiToken)).status, 200);
  assert.is((await read(`/v1/spaces/${staffOnly.id}`, reader.body.apiToken)).status, 404, 'a claim the condition wants is missing');
  assert.is((await read(`${sites()}/${site.id}/structure`, reader.body.apiToken)).body.structure.length, 1);

  // A token that never expires, or expires past the week a visitor token may live, is refused as a wrong one.
  const forever = await new SignJWT({ role: 'staff' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(auth.body.privateKey as string));
  for (const jwt of [
    await sign({ role: 'staff' }, "a key that is not the site's, long enough to sign"),
    await sign({ role: 'staff' }, undefined, '-1m'),
    'not.a.jwt',
    forever,
    await sign({ role: 'staff' }, undefined, '30d'),
  ]) {
    const refused = await lookup(page, { visitor: { jwtToken: jwt } });
    assert.is(refused.status, 401, `a wrong or expired token: ${JSON.stringify(refused.body)}`);
    assert.equal((await lookup(page, { visitor: { jwtToken: jwt }, redirectOnError: true })).body.target, 'external', 'or the fallback URL when asked');
  }

  const regenerated = await t.call('POST', `${authPath}/regenerate`, { token: fx.admin.token });
  assert.is(regenerated.status, 200);
  assert.is.not(regenerated.body.privateKey, auth.body.privateKey);
  assert.is((await read(`/v1/spaces/${guide.id}`, reader.body.apiToken)).status, 404, 'a new key stops the tokens minted with the old one');
  assert.is((await lookup(page, { visitor: { jwtToken: await sign({ role: 'reader' }) } })).status, 401);
  assert.is((await lookup(page, { visitor: { jwtToken: await sign({ role: 'reader' }, regenerated.body.privateKey) } })).status, 200);

  // On a public site a signed visitor is no more than a claim: a bad token makes an anonymous visitor.
  assert.is((await t.call('PATCH', `${sites()}/${site.id}`, { token: fx.admin.token, body: { visibility: 'public' } })).status, 200);
  const anonymous = await lookup(`${site.urls.published}staff/`, { visitor: { jwtToken: 'not.a.jwt' } });
  assert.equal([anonymous.status, anonymous.body.space], [200, guide.id], 'staff/ is no site space for an anonymous visitor');
  const adaptive = await lookup(`${site.urls.published}staff/`, { visitor: { jwtToken: await sign({ role: 'staff' }, regenerated.body.privateKey) } });
  assert.is(adaptive.body.space, staffOnly.id);
});

test("a page's meta links come from its frontmatter: a URL or another page of the revision; none declared is an empty list", async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; path: string }>;
  const quickStart = pages.find((page) => page.path === 'quick-start')!;
  const changeRequest = (await t.call('POST', `/v1/spaces/${guide.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Meta links' } })).body;
  const markdown = '---\nmetaLinks:\n  canonical: https://docs.example.com/welcome\n  alternates: [quick-start, nowhere, 42, "https://fr.example.com/"]\n---\n# Welcome\n';
  const written = await t.call('POST', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: pages[0]!.id, document: { markdown } }] },
  });
  assert.is(written.status, 200, JSON.stringify(written.body));
  // On the change request's branch before the merge (listChangeRequestPageMetaLinks); the space's own content still has none.
  const onBranch = await t.call('GET', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/content/page/${pages[0]!.id}/meta-links`, { token: fx.reader.token });
  assert.equal(onBranch.body.canonical, { kind: 'url', url: 'https://docs.example.com/welcome' });
  assert.equal((await t.call('GET', `/v1/spaces/${guide.id}/content/page/${pages[0]!.id}/meta-links`, { token: fx.reader.token })).body, { alternates: [] });
  assert.is((await t.call('POST', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
  const live = await t.call('GET', `/v1/spaces/${guide.id}/content/page/${pages[0]!.id}/meta-links`, { token: fx.reader.token });
  assert.equal(live.body.alternates, [
    { kind: 'page', page: quickStart.id },
    { kind: 'url', url: 'https://fr.example.com/' },
  ]);
  const token = (await lookup(site.urls.published)).body.apiToken as string;
  const revision = (await read(`/v1/spaces/${guide.id}`, token)).body.revision as string;
  const links = await read(`/v1/spaces/${guide.id}/revisions/${revision}/page/${pages[0]!.id}/meta-links`, token);
  assert.is(links.status, 200, JSON.stringify(links.body));
  assert.equal(links.body, {
    canonical: { kind: 'url', url: 'https://docs.example.com/welcome' },
    alternates: [
      { kind: 'page', page: quickStart.id },
      { kind: 'url', url: 'https://fr.example.com/' },
    ],
  });
  assert.equal((await read(`/v1/spaces/${guide.id}/revisions/${revision}/page/${quickStart.id}/meta-links`, token)).body, { alternates: [] });
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${revision}/page/nosuchpage/meta-links`, token)).status, 404);
});

test('previews: a member resolves ~/changes/<n>/ and ~/revisions/<id>/ of a published site; the token reads that change request or revision, and no other', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const changeRequest = (await t.call('POST', `/v1/spaces/${guide.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Draft' } })).body;
  const other = (await t.call('POST', `/v1/spaces/${guide.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Other' } })).body;
  const inserted = await t.call('POST', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'insert_page', title: 'Draft page', document: { markdown: 'Not yet published.\n' } }] },
  });
  assert.is(inserted.status, 200, JSON.stringify(inserted.body));
  const previewUrl = `${site.urls.published}~/changes/${changeRequest.number}/draft-page`;
  const asMember = (url: string) => t.call('POST', '/v1/urls/published', { token: fx.reader.token, body: { url } });

  assert.is((await lookup(previewUrl)).status, 404, 'an anonymous visitor sees no change request');
  assert.is((await t.call('POST', '/v1/urls/published', { token: fx.outsider.token, body: { url: previewUrl } })).status, 404, "nor does someone who can't read the space");
  const preview = await asMember(previewUrl);
  assert.is(preview.status, 200, JSON.stringify(preview.body));
  const basePath = new URL(site.urls.published).pathname;
  assert.equal(
    [preview.body.changeRequest, preview.body.pathname, preview.body.basePath, preview.body.canonicalUrl],
    [changeRequest.id, 'draft-page', `${basePath}~/changes/${changeRequest.number}/`, `${site.urls.published}draft-page`],
  );
  const token = preview.body.apiToken as string;
  assert.is(decoded(token).changeRequest, changeRequest.id);
  const draft = await read(`/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/content/path/draft-page`, token);
  assert.is(draft.status, 200, JSON.stringify(draft.body));
  assert.is((await read(`/v1/spaces/${guide.id}/change-requests/${changeRequest.number}/content`, token)).status, 200, 'by number too');
  assert.is((await read(`/v1/spaces/${guide.id}/change-requests/${other.id}/content`, token)).status, 403, 'another change request');
  assert.is((await read(`/v1/spaces/${guide.id}/Change-Requests/${other.id}/content`, token)).status, 403, 'another change request, the path in other case');
  assert.is((await read(`/v1/spaces/${guide.id}/CHANGE-REQUESTS`, token)).status, 403, 'the list of change requests');
  assert.is((await read(`/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/comments`, token)).status, 403, "the previewed change request's comments");
  for (const part of ['reviews', 'requested-reviewers', 'contributors', 'changes', 'pdf']) {
    const refused = await read(`/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/${part}`, token);
    assert.is(refused.status, 403, `the previewed change request's ${part}`);
    assert.match(refused.body.error.message, 'A site token reads published content only');
  }
  const head = (await t.call('GET', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}`, { token: fx.reader.token })).body.revision as string;
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${head}/pages`, token)).status, 200, "the change request's commits");
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${head}/pages`, (await lookup(site.urls.published)).body.apiToken)).status, 404, "but not with a visitor's token");
  assert.is((await asMember(`${site.urls.published}~/changes/999/`)).status, 404);

  const revisionUrl = `${site.urls.published}~/revisions/${guide.revision}/quick-start`;
  const revision = await asMember(revisionUrl);
  assert.is(revision.status, 200, JSON.stringify(revision.body));
  assert.equal([revision.body.revision, revision.body.pathname], [guide.revision, 'quick-start']);
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${guide.revision}/path/quick-start`, revision.body.apiToken)).status, 200);
  assert.is((await read(`/v1/spaces/${guide.id}/revisions/${head}/pages`, revision.body.apiToken)).status, 404, 'only the revision it previews, of what is unpublished');
  assert.is((await asMember(`${site.urls.published}~/revisions/${'0'.repeat(40)}/`)).status, 404);
});

test('a publishing preview URL shows an unpublished (or visitor-auth) site for an hour, to whoever holds it', async () => {
  const guide = await space('Guide');
  const beta = await space('Beta');
  const created = await t.call('POST', sites(), { token: fx.admin.token, body: { title: 'Upcoming', spaces: [guide.id], visibility: 'visitor-auth' } });
  const added = await t.call('POST', `${sites()}/${created.body.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: beta.id } });
  await t.call('PATCH', `${sites()}/${created.body.id}/site-spaces/${added.body.id}`, { token: fx.admin.token, body: { path: 'beta' } });
  const previewPath = `${sites()}/${created.body.id}/publishing/preview`;
  assert.is((await t.call('GET', previewPath, { token: fx.reader.token })).status, 403, 'handed out by those who edit the site');
  const preview = await t.call('GET', `${previewPath}?siteSpace=${added.body.id}&draft=true`, { token: fx.creator.token });
  assert.is(preview.status, 200, JSON.stringify(preview.body));
  const url = new URL(preview.body.url);
  assert.ok(url.searchParams.get('preview'), 'the URL carries its key');
  assert.match(url.pathname, new RegExp(`/sites/${created.body.id}/beta/$`));
  assert.is((await lookup(`${url.origin}${url.pathname}`)).status, 404, 'without the key the site is unpublished');

  const found = await lookup(url.toString());
  assert.is(found.status, 200, JSON.stringify(found.body));
  assert.equal([found.body.space, found.body.pathname], [beta.id, '']);
  const claims = decoded(found.body.apiToken);
  assert.ok(Number(claims.exp) - Math.floor(Date.now() / 1000) <= 3600, 'the token lasts no longer than the preview');
  assert.is((await read(`/v1/spaces/${beta.id}`, found.body.apiToken)).status, 200, 'the token reads the unpublished site');
  assert.is((await read(`${sites()}/${created.body.id}/published`, found.body.apiToken)).status, 200);

  const forged = new URL(url);
  forged.searchParams.set('preview', `${url.searchParams.get('preview')!.slice(0, -2)}xx`);
  assert.is((await lookup(forged.toString())).status, 404, 'a forged key is no key');
  const otherSite = await publishedSite('Other', [beta.id]);
  assert.is((await lookup(`${otherSite.urls.published}?preview=${url.searchParams.get('preview')}`)).status, 200, 'on another site the key is ignored: that site answers as it always does');
  assert.is((await t.call('GET', `${previewPath}?claims=(role:staff)`, { token: fx.creator.token })).status, 400);
  assert.is((await t.call('GET', `${previewPath}?siteSpace=nosuch`, { token: fx.creator.token })).status, 400);
  const targeted = await t.call('GET', `${previewPath}?target=${encodeURIComponent('https://docs.example.com/guide')}`, { token: fx.creator.token });
  assert.match(targeted.body.url, /^https:\/\/docs\.example\.com\/guide\?preview=/);
});

test('site search: the site spaces in scope, grouped by space in the site order; a visitor never finds content hidden from them; words in any script', async () => {
  const guide = await space('Guide');
  const secret = await space('Secret');
  const site = await publishedSite('Docs', [guide.id]);
  const added = await t.call('POST', `${sites()}/${site.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: secret.id } });
  await t.call('PATCH', `${sites()}/${site.id}/site-spaces/${added.body.id}`, { token: fx.admin.token, body: { condition: 'visitor.claims.unsigned.staff == true', path: 'staff' } });
  const pages = (await t.call('GET', `/v1/spaces/${secret.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string }>;
  const changeRequest = (await t.call('POST', `/v1/spaces/${secret.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Words' } })).body;
  const words = 'Zanzibar handbook. 東京の設定ガイド. Настройка сервера. Café crème brûlée.';
  await t.call('POST', `/v1/spaces/${secret.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: pages[0]!.id, document: { markdown: `${words}\n` } }] },
  });
  assert.is((await t.call('POST', `/v1/spaces/${secret.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');

  const search = (token: string, body: Record<string, unknown>) => t.call('POST', `${sites()}/${site.id}/search`, { headers: bearer(token), body });
  const visitor = (await lookup(site.urls.published)).body.apiToken as string;
  const staff = (await lookup(`${site.urls.published}staff/`, { visitor: { unsignedClaims: { staff: true } } })).body.apiToken as string;

  // Opening the search warms the index of what the visitor sees: once it answers, that index is at
  // its space's head. (Whether the hidden space was left alone can't be told apart from the
  // refresh a merge schedules in the background.)
  const indexed = async (spaceId: string) => (await t.server.db.get<{ revision: string }>('SELECT revision FROM search_spaces WHERE space_id = ?', [spaceId]))?.revision;
  const head = async (spaceId: string) => (await t.call('GET', `/v1/spaces/${spaceId}`, { token: fx.admin.token })).body.revision as string;
  assert.is((await t.call('POST', `${sites()}/${site.id}/search/prewarm`, { headers: bearer(visitor) })).status, 204);
  assert.is(await indexed(guide.id), await head(guide.id), 'the visible space is indexed at its head');
  assert.is((await t.call('POST', `${sites()}/${site.id}/search/prewarm`, { headers: bearer(staff) })).status, 204);
  assert.is(await indexed(secret.id), await head(secret.id), 'and the one a staff visitor sees, for them');

  const hidden = await search(visitor, { query: 'Zanzibar', scope: { mode: 'all' } });
  assert.is(hidden.status, 200, JSON.stringify(hidden.body));
  assert.equal(hidden.body.items, [], 'a visitor without the claim finds nothing of the hidden site space');
  const named = await search(visitor, { query: 'Zanzibar', scope: { mode: 'specific', siteSpaceIds: [added.body.id] } });
  assert.is(named.status, 400, 'nor can they name it');

  for (const query of ['Zanzibar', '東京', 'сервера', 'brulee', 'creme']) {
    const found = await search(staff, { query, scope: { mode: 'all' } });
    assert.is(found.status, 200, JSON.stringify(found.body));
    assert.equal(
      found.body.items.map((item: { id: string }) => item.id),
      [secret.id],
      `"${query}" finds the page`,
    );
    assert.is(found.body.items[0].title, 'Secret');
  }
  const unscoped = await search(staff, { query: 'Zanzibar' });
  assert.equal([unscoped.status, unscoped.body.error?.message], [400, 'Invalid request body: "scope" is required'], 'a search names its scope (or a deprecated mode)');
  const byDefault = await search(staff, { query: 'Zanzibar', scope: { mode: 'default' } });
  assert.equal(byDefault.body.items, [], "the default scope is each section's default site space");
  const withCurrent = await search(staff, { query: 'Zanzibar', scope: { mode: 'default', currentSiteSpace: added.body.id } });
  assert.is(withCurrent.body.items.length, 1);
  const guideHits = await search(staff, { query: 'configuration', scope: { mode: 'all' } });
  assert.is(guideHits.body.items[0].id, guide.id, 'grouped by space, in the site order');

  const asMember = await t.call('POST', `${sites()}/${site.id}/search`, { token: fx.reader.token, body: { query: 'Zanzibar', mode: 'all' } });
  assert.is(asMember.status, 200);
  assert.is(asMember.body.items.length, 1, 'a member searches every site space they can read');
  assert.is((await t.call('POST', `${sites()}/${site.id}/search`, { headers: bearer(visitor), body: { query: 'x', surprise: 1 } })).status, 400);
  const cleared = await t.call('POST', `${sites()}/${site.id}/search`, { headers: bearer(staff), body: { query: '', scope: { mode: 'all' } } });
  assert.equal([cleared.status, cleared.body.items], [200, []], 'an empty query finds nothing');
});

test('site redirects: made, listed, found by source, followed by the URL lookup; destinations must be on the site', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const base = `${sites()}/${site.id}`;
  const siteSpace = (await t.call('GET', `${base}/site-spaces`, { token: fx.admin.token })).body.items[0].id as string;
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; path: string; pages: Array<{ id: string; path: string }> }>;
  const quickStart = pages.find((page) => page.path === 'quick-start')!;
  const created = await t.call('POST', `${base}/redirects`, {
    token: fx.admin.token,
    body: { source: '/old-guide', destination: { kind: 'site-page', siteSpaceId: siteSpace, pageId: quickStart.id } },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body, {
    object: 'site-redirect',
    id: created.body.id,
    source: '/old-guide',
    draft: false,
    captureWildcard: false,
    permanent: false,
    destination: { kind: 'site-page', siteSpaceId: siteSpace, pageId: quickStart.id },
    createdAt: created.body.createdAt,
  });
  assert.is((await t.call('POST', `${base}/redirects`, { token: fx.admin.token, body: { source: '/old-guide', destination: { kind: 'site-space', siteSpaceId: siteSpace } } })).status, 409);
  const wrong = await t.call('POST', `${base}/redirects`, { token: fx.admin.token, body: { source: '/elsewhere', destination: { kind: 'site-page', siteSpaceId: siteSpace, pageId: 'nope' } } });
  assert.is(wrong.status, 400);
  assert.match(wrong.body.error.message, `"destination" names page nope of site space ${siteSpace}, which is not on site ${site.id}`);
  assert.is((await t.call('POST', `${base}/redirects`, { token: fx.admin.token, body: { source: 'no-slash', destination: { kind: 'site-space', siteSpaceId: siteSpace } } })).status, 400);
  assert.is((await t.call('POST', `${base}/redirects`, { token: fx.reader.token, body: { source: '/x', destination: { kind: 'site-space', siteSpaceId: siteSpace } } })).status, 403);

  const listed = await t.call('GET', `${base}/redirects?search=old`, { token: fx.reader.token });
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [created.body.id],
  );
  const bySource = await t.call('GET', `${base}/redirect?source=${encodeURIComponent('/old-guide')}`, { token: fx.reader.token });
  assert.is(bySource.status, 200);
  assert.is(bySource.body.target, `${site.urls.published}quick-start`);
  const followed = await lookup(`${site.urls.published}old-guide`);
  assert.equal(followed.body, { target: 'content', redirect: `${site.urls.published}quick-start` });
  const token = (await lookup(site.urls.published)).body.apiToken as string;
  assert.is((await read(`${base}/redirect?source=${encodeURIComponent('/old-guide')}`, token)).status, 200, 'the renderer reads redirects with its site token');

  const moved = await t.call('PATCH', `${base}/redirects/${created.body.id}`, { token: fx.admin.token, body: { source: '/older-guide' } });
  assert.is(moved.body.source, '/older-guide');
  assert.is((await t.call('GET', `${base}/redirect?source=${encodeURIComponent('/old-guide')}`, { token: fx.reader.token })).status, 404);
  assert.is((await t.call('DELETE', `${base}/redirects/${created.body.id}`, { token: fx.admin.token })).status, 204);
  assert.is((await t.call('DELETE', `${base}/redirects/${created.body.id}`, { token: fx.admin.token })).status, 404);
  assert.is((await lookup(`${site.urls.published}older-guide`)).body.pathname, 'older-guide', 'no redirect: an ordinary page path again');
});

test('0.202.0 redirects: wildcard sources carrying their match, external and path destinations, permanent ones, many at once', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const base = `${sites()}/${site.id}`;
  const create = (body: Record<string, unknown>) => t.call('POST', `${base}/redirects`, { token: fx.admin.token, body });
  const wildcard = await create({ source: '/v1/*', destination: { kind: 'path', spaceId: guide.id, path: 'quick-start' }, permanent: true });
  assert.is(wildcard.status, 201, JSON.stringify(wildcard.body));
  assert.is(wildcard.body.destination.kind, 'site-page', 'a path destination is stored as the page it names');
  const external = await create({ source: '/api/*', destination: { kind: 'external', url: 'https://api.example.com/reference' }, captureWildcard: true });
  assert.is(external.status, 201, JSON.stringify(external.body));
  assertErrorIs(
    await create({ source: '/exact', destination: { kind: 'external', url: 'https://x.example.com/' }, captureWildcard: true }),
    400,
    '"captureWildcard" needs a source ending in "*": there is nothing to capture',
  );
  assertErrorIs(await create({ source: '/draft', destination: { kind: 'site-space', siteSpaceId: 'x' }, draft: true }), 400, '"draft": Quire has no draft redirects: create the redirect live');
  assertErrorIs(await create({ source: '/js', destination: { kind: 'external', url: 'javascript:alert(1)' } }), 400, '"destination.url" must be an http or https URL');
  assertErrorIs(await create({ source: '/gone', destination: { kind: 'path', spaceId: guide.id, path: 'no/such/page' } }), 400, `"destination.path" no/such/page is no page of space ${guide.id}`);
  assertErrorIs(await create({ source: '/port', destination: { kind: 'external', url: 'https://example.com:99999/x' } }), 400, '"destination.url" must be an http or https URL');
  assertErrorIs(
    await create({ source: '/quick-start/*', destination: { kind: 'path', spaceId: guide.id, path: 'quick-start' } }),
    400,
    '"destination" is itself under /quick-start/*: the redirect would lead back to itself',
  );

  // On the site: a permanent redirect of a public site is a 308; the external one carries what its star matched.
  const followed = await fetch(`${site.urls.published}v1/anything/below`, { redirect: 'manual' });
  assert.is(followed.status, 308);
  assert.is(followed.headers.get('location'), `${site.urls.published}quick-start`);
  const away = await fetch(`${site.urls.published}api/users/list`, { redirect: 'manual' });
  assert.is(away.status, 302);
  assert.is(away.headers.get('location'), 'https://api.example.com/reference/users/list');
  const encoded = await fetch(`${site.urls.published}api/a%20b/caf%C3%A9`, { redirect: 'manual' });
  assert.is(encoded.headers.get('location'), 'https://api.example.com/reference/a%20b/caf%C3%A9', 'what the star matched is encoded once');
  const bySource = await t.call('GET', `${base}/redirect?source=${encodeURIComponent('/api/users')}`, { token: fx.reader.token });
  assert.is(bySource.body.target, 'https://api.example.com/reference/users');

  const bulk = await t.call('PUT', `${base}/redirects`, {
    token: fx.admin.token,
    body: {
      redirects: [
        { source: '/new-one', destination: { kind: 'external', url: 'https://new.example.com/' } },
        { source: '/api/*', destination: { kind: 'external', url: 'https://api.example.com/v2' }, captureWildcard: true },
        { source: '/v1/*', destination: null },
        { source: '/never-made', destination: null },
        { source: '/drafted', intent: 'draft', destination: { kind: 'external', url: 'https://d.example.com/' } },
      ],
    },
  });
  assert.is(bulk.status, 200, JSON.stringify(bulk.body));
  assert.equal(
    bulk.body.results.map((result: { status: string; source: string }) => [result.status, result.source]),
    [
      ['created', '/new-one'],
      ['updated', '/api/*'],
      ['deleted', '/v1/*'],
      ['error', '/never-made'],
      ['error', '/drafted'],
    ],
  );
  // Upstream's orders: newest created first (the default), newest changed first, or by source.
  const ordered = async (query: string) =>
    (await t.call('GET', `${base}/redirects?${query}`, { token: fx.reader.token })).body.items as Array<{ source: string; createdAt: string; updatedAt?: string }>;
  const sources = async (query: string) => (await ordered(query)).map((item) => item.source);
  assert.equal(await sources(''), ['/new-one', '/api/*'], 'newest created first');
  assert.equal(await sources('orderBy=updatedAt'), ['/api/*', '/new-one'], 'the one the bulk request changed after creating the other, first');
  assert.equal(await sources('orderBy=source'), ['/api/*', '/new-one']);
  assert.equal(await ordered('draft=true'), [], 'Quire keeps no drafts');
  const undecided = await t.call('PUT', `${base}/redirects`, { token: fx.admin.token, body: { redirects: [{ source: '/half', intent: 'live' }] } });
  assert.is(undecided.status, 400, 'a redirect neither given a destination nor deleted is a mistake in the request');
  assert.match(undecided.body.error.message, /destination/);
  assert.is((await fetch(`${site.urls.published}v1/anything`, { redirect: 'manual' })).status, 404, 'the deleted wildcard no longer answers');
  assert.is((await fetch(`${site.urls.published}api/x`, { redirect: 'manual' })).headers.get('location'), 'https://api.example.com/v2/x');
});

test('a page moved in the git history, or named by .gitbook.yaml redirects, keeps answering at its old path with a redirect to where it is now', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const work = mkdtempSync(path.join(tmpdir(), 'quire-moved-'));
  try {
    await ok(work, 'clone', '--quiet', `${t.url.replace('://', `://x:${fx.admin.token}@`)}/git/${guide.id}.git`, '.');
    await ok(work, 'mv', 'faq.md', 'questions.md');
    writeFileSync(path.join(work, 'SUMMARY.md'), readFileSync(path.join(work, 'SUMMARY.md'), 'utf8').replace('(faq.md)', '(questions.md)'));
    const config = readFileSync(path.join(work, '.gitbook.yaml'), 'utf8');
    writeFileSync(path.join(work, '.gitbook.yaml'), `${config}\nredirects:\n  old/setup: quick-start/configuration.md\n  nowhere: missing.md\n  quick-start: faq.md\n`);
    await ok(work, 'commit', '-qam', 'Rename the FAQ; redirect the old setup guide');
    await ok(work, 'push', '--quiet', 'origin', 'HEAD:main');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const moved = await lookup(`${site.urls.published}faq`);
  assert.equal(moved.body, { target: 'content', redirect: `${site.urls.published}questions` });
  assert.is((await lookup(`${site.urls.published}questions`)).body.pathname, 'questions');
  assert.is((await lookup(`${site.urls.published}never-was`)).body.pathname, 'never-was', 'a path no page ever had resolves as is (the page read is the 404)');
  assert.equal((await lookup(`${site.urls.published}old/setup/`)).body, { target: 'content', redirect: `${site.urls.published}quick-start/configuration` }, '.gitbook.yaml names where it went');
  assert.is((await lookup(`${site.urls.published}nowhere`)).body.pathname, 'nowhere', 'a redirect to a file that is no page leads nowhere');
  assert.is((await lookup(`${site.urls.published}quick-start`)).body.pathname, 'quick-start', 'a page that is there is never redirected');
});

test.run();
