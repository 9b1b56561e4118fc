import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, assertGuarded, messages, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { metadataFiles } from '../helpers/postgres.js';
import { signedInBrowser } from '../helpers/formBrowser.js';
import { runAdmin } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('conversations: ingestion, issues, clusters');
let t: TestServer;
let fx: OrganizationFixture;

test.before(
  reportingErrors(async () => {
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => t?.close());

const base = () => `/v1/orgs/${fx.org.id}`;
const user = (body: string) => ({ type: 'message', role: 'user', body });
const team = (body: string) => ({ type: 'message', role: 'team-member', body });
const post = (body: unknown, token = fx.admin.token) => t.call('POST', `${base()}/conversations`, { token, body });
const detail = async (id: string) => (await t.call('GET', `${base()}/conversations/${encodeURIComponent(id)}`, { token: fx.editor.token })).body;
const processed = (id: string) => until(`conversation ${id} to be processed`, async () => (await detail(id)).conversation.processedAt);
const issuesOf = async (conversation: string) => (await t.call('GET', `${base()}/conversations-issues?conversation=${encodeURIComponent(conversation)}`, { token: fx.editor.token })).body.items;

test('a posted conversation is stored at once, then processed into an issue in a cluster', async () => {
  const posted = await post({
    id: 'zd-1001',
    subject: 'Okta SSO login loop',
    parts: [user('Hi, since we enabled SAML single sign-on with Okta our editors end up in a login loop. How do I fix the SSO configuration?'), team('Could you check the ACS URL?')],
    metadata: { url: 'https://help.example.com/tickets/1001', attributes: { priority: 'high' }, createdAt: '2026-11-20T10:00:00.000Z' },
  });
  assert.is(posted.status, 204);
  const stored = await detail('zd-1001');
  assert.is(stored.conversation.id, 'zd-1001');
  assert.is(stored.conversation.subject, 'Okta SSO login loop');
  assert.is(stored.conversation.createdAt, '2026-11-20T10:00:00.000Z');
  assert.is(stored.conversation.source, `integration:api:${fx.admin.id}`);
  assert.is(stored.conversation.urls.source, 'https://help.example.com/tickets/1001');
  assert.equal(stored.parts[1], team('Could you check the ACS URL?'));
  assert.equal(stored.metadata, { url: 'https://help.example.com/tickets/1001', attributes: { priority: 'high' }, createdAt: '2026-11-20T10:00:00.000Z' });

  await processed('zd-1001');
  const [listed, ...more] = await issuesOf('zd-1001');
  assert.is(more.length, 0);
  assert.is(listed.issue.title, 'How do I fix the SSO configuration?');
  assert.is(listed.issue.summary, 'since we enabled SAML single sign-on with Okta our editors end up in a login loop. How do I fix the SSO configuration?');
  assert.is(listed.issue.conversation, 'zd-1001');
  assert.is(listed.issue.createdAt, '2026-11-20T10:00:00.000Z');
  assert.is(listed.conversation.id, 'zd-1001');

  const issue = (await t.call('GET', `${base()}/conversations-issues/${listed.issue.id}`, { token: fx.editor.token })).body;
  assert.equal(issue, listed);
  const cluster = (await t.call('GET', `${base()}/conversations-clusters/${listed.issue.cluster}`, { token: fx.editor.token })).body;
  assert.is(cluster.stats.issues, 1);
  assert.is(cluster.stats.conversations, 1);

  // Its urls.app opens the cluster in the web app.
  assert.is((await runAdmin(['user', 'password', '--email', fx.editor.email], { DATA_DIR: t.dataDir }, { stdin: 'correct horse battery staple\n' })).code, 0);
  const browser = await signedInBrowser(t.url, fx.editor.email, 'correct horse battery staple');
  const shown = await browser.get(new URL(cluster.urls.app).pathname);
  assert.is(shown.status, 200);
  assert.match(shown.html, '1 issue from 1 conversation');
  assert.equal(cluster.sources, { [`integration:api:${fx.admin.id}`]: 1 });
  assert.is(cluster.icon, 'lock');
  assert.ok(/sso|okta|saml|login/i.test(cluster.label), cluster.label);
  assert.is(cluster.summary, '"How do I fix the SSO configuration?" from 1 conversation.');
  const weeksAgo = Math.floor((Date.now() - Date.parse('2026-11-20T10:00:00.000Z')) / (7 * 86_400_000));
  const pulse = new Array(13).fill(0);
  if (weeksAgo < 13) pulse[12 - weeksAgo] = 1;
  assert.equal(cluster.weeklyPulse, pulse);

  const byCluster = (await t.call('GET', `${base()}/conversations-issues?cluster=${listed.issue.cluster}`, { token: fx.editor.token })).body;
  assert.equal(
    byCluster.items.map((item: any) => item.issue.id),
    [listed.issue.id],
  );
  const clusters = (await t.call('GET', `${base()}/conversations-clusters`, { token: fx.editor.token })).body;
  assert.ok(clusters.items.some((item: any) => item.id === cluster.id));
  assert.is((await t.call('GET', `${base()}/conversations-clusters?status=pending`, { token: fx.editor.token })).body.items.length, 0);
});

test('posting the same id again updates the conversation and replaces its issues; an identical post changes nothing', async () => {
  const first = { id: 'zd-2002', subject: 'Invoices', parts: [user('Where can I add our VAT ID so it is printed on invoices?')] };
  assert.is((await post(first)).status, 204);
  await processed('zd-2002');
  const [before] = await issuesOf('zd-2002');
  const processedAt = (await detail('zd-2002')).conversation.processedAt;

  assert.is((await post(first)).status, 204);
  assert.is((await detail('zd-2002')).conversation.processedAt, processedAt, 'nothing to process again');

  assert.is((await post({ ...first, parts: [...first.parts, user('Also, how do I download past invoices as PDF?')] })).status, 204);
  await until('the new revision to be processed', async () => (await detail('zd-2002')).conversation.processedAt !== processedAt && (await detail('zd-2002')).conversation.processedAt);
  const after = await issuesOf('zd-2002');
  assert.is(after.length, 1);
  assert.is.not(after[0].issue.id, before.issue.id);
  assert.is(after[0].issue.summary, 'Where can I add our VAT ID so it is printed on invoices? Also, how do I download past invoices as PDF?');
  const all = (await t.call('GET', `${base()}/conversations?limit=1000`, { token: fx.editor.token })).body.items.filter((item: any) => item.id === 'zd-2002');
  assert.is(all.length, 1, 'one conversation, not two');
  assertErrorIs(await t.call('GET', `${base()}/conversations-issues/${before.issue.id}`, { token: fx.editor.token }), 404, `Conversation issue ${before.issue.id} not found`);
});

test('personal data is redacted before anything is stored: emails, phone numbers, cards, tokens', async () => {
  const secrets = {
    email: 'jane.doe@acme-corp.com',
    phone: '+1 415 555 0134',
    phoneUk: '+44 20 7946 0958',
    card: '4242 4242 4242 4242',
    stripeKey: 'sk_live_9fA83kLmQz7RtY2vWx4bN6cD1eH5jP0s',
    githubToken: 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    bearer: 'Zx81hd92kKq0-plm',
  };
  const body = `My email is ${secrets.email}, call ${secrets.phone} or ${secrets.phoneUk}. Card ${secrets.card}. Keys: ${secrets.stripeKey} ${secrets.githubToken} ${secrets.jwt}. Header: Authorization: Bearer ${secrets.bearer}. Why do I get 401 from the API?`;
  assert.is(
    (
      await post({
        id: 'zd-3003',
        subject: `From ${secrets.email}`,
        parts: [user(body)],
        metadata: { url: `https://help.example.com/t/3?token=${secrets.githubToken}`, attributes: { requester: secrets.email } },
      })
    ).status,
    204,
  );
  const stored = await detail('zd-3003');
  assert.is(stored.parts[0].body, 'My email is [email], call [phone] or [phone]. Card [card]. Keys: [token] [token] [token]. Header: Authorization: Bearer [token]. Why do I get 401 from the API?');
  assert.is(stored.conversation.subject, 'From [email]');
  assert.equal(stored.metadata, { url: 'https://help.example.com/t/3?token=%5Btoken%5D', attributes: { requester: '[email]' } });
  await processed('zd-3003');
  const [issue] = await issuesOf('zd-3003');
  assert.ok(issue.issue.summary.includes('[email]'), issue.issue.summary);
  // Nowhere on disk: neither the database, nor its write-ahead log.
  const disk = (await metadataFiles(t.dataDir)).map((file) => readFileSync(file).toString('latin1')).join('');
  for (const [kind, secret] of Object.entries(secrets)) assert.not.ok(disk.includes(secret), `${kind} reached the disk`);
  // Version numbers, dates and ordinary long words stay.
  assert.is((await post({ id: 'zd-3004', parts: [user('Version 1.2.3 released on 2026-05-01, order 12345; internationalization works')] })).status, 204);
  assert.is((await detail('zd-3004')).parts[0].body, 'Version 1.2.3 released on 2026-05-01, order 12345; internationalization works');
});

test('redaction sees through look-alikes: international and fullwidth addresses, separated and fullwidth card numbers, credential phrases, attribute keys and ids', async () => {
  const secrets = {
    accented: 'jöhn.döe@example.com',
    idnDomain: 'john@exämple.com',
    fullwidthAt: 'john＠example.com',
    noDot: 'admin@localhost',
    cyrillicTld: 'user@example.рф',
    dots: '4242.4242.4242.4242',
    nbsp: '4242\u00a04242\u00a04242\u00a04242',
    doubleSpaces: '4242  4242  4242  4242',
    slashes: '4242/4242/4242/4242',
    fullwidthDigits: '４２４２ ４２４２ ４２４２ ４２４２',
    phrase: 'hunter2hunter',
    pw: 'Sup3r$ecret',
  };
  const body = `Mails: ${secrets.accented}, ${secrets.idnDomain}, ${secrets.fullwidthAt}, ${secrets.noDot}, ${secrets.cyrillicTld}. Cards: ${secrets.dots}; ${secrets.nbsp}; ${secrets.doubleSpaces}; ${secrets.slashes}; ${secrets.fullwidthDigits}. My password is ${secrets.phrase}, pw= ${secrets.pw}!`;
  const id = 'alice.smith@corp.example';
  assert.is((await post({ id, parts: [user(body)], metadata: { attributes: { 'jane.doe@corp.example': 'requester' } } })).status, 204);
  const stored = await detail(id);
  assert.is(stored.parts[0].body, 'Mails: [email], [email], [email], [email], [email]. Cards: [card]; [card]; [card]; [card]; [card]. My password is [token], pw= [token]!');
  assert.equal(stored.metadata, { attributes: { '[email]': 'requester' } });
  assert.match(stored.conversation.id, /^redacted-[0-9a-f]{32}$/);
  // The same id posted again is the same conversation.
  assert.is((await post({ id, parts: [user('Following up.')] })).status, 204);
  assert.is((await detail(id)).conversation.id, stored.conversation.id);
  const listed = (await t.call('GET', `${base()}/conversations?limit=100`, { token: fx.editor.token })).body.items as Array<{ id: string }>;
  assert.is(listed.filter((item) => item.id === stored.conversation.id).length, 1);
  const disk = (await metadataFiles(t.dataDir)).map((file) => readFileSync(file).toString('utf8')).join('');
  for (const [kind, secret] of Object.entries({ ...secrets, id, key: 'jane.doe@corp.example' })) assert.not.ok(disk.includes(secret), `${kind} reached the disk`);
});

test('text that made the email pattern backtrack for seconds is redacted in passing: ten 100 KB parts in one post', async () => {
  const parts = Array.from({ length: 10 }, () => user('a.'.repeat(50_000)));
  assert.is((await post({ id: 'zd-dots', parts })).status, 204);
  assert.is((await detail('zd-dots')).parts[9].body, 'a.'.repeat(50_000));
});

test('thanks, spam and problems the user solved alone yield no issue', async () => {
  const nothing = [
    { id: 'n-thanks', parts: [user('Just wanted to say thanks, the new editor is great!')] },
    { id: 'n-spam', parts: [user('Boost your SEO today! Premium backlinks at a limited time discount. Click here to buy now.')] },
    { id: 'n-solved', parts: [user("I couldn't publish the site earlier."), team('What error do you see?'), user('Never mind, I solved it myself. Thanks!')] },
    { id: 'n-empty', parts: [] },
  ];
  assert.is((await post(nothing)).status, 204);
  for (const conversation of nothing) {
    await processed(conversation.id);
    assert.is((await issuesOf(conversation.id)).length, 0, conversation.id);
  }
});

test('a change request can point at a cluster; the change-request list filters by it', async () => {
  assert.is((await post({ id: 'zd-4004', parts: [user('How do I configure a custom domain with a CNAME record?')] })).status, 204);
  await processed('zd-4004');
  const [{ issue }] = await issuesOf('zd-4004');
  const space = (await t.call('POST', `${base()}/spaces`, { token: fx.admin.token, body: { title: 'Guides' } })).body;
  const created = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Custom domains', conversationsIssuesCluster: issue.cluster } });
  assert.is(created.status, 201);
  assert.is(created.body.conversationsIssuesCluster, issue.cluster);
  const other = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Other' } })).body;
  const listed = (await t.call('GET', `/v1/spaces/${space.id}/change-requests?conversationsIssuesCluster=${issue.cluster}`, { token: fx.admin.token })).body;
  assert.equal(
    listed.items.map((item: any) => item.id),
    [created.body.id],
  );
  const inOrg = (await t.call('GET', `${base()}/change-requests?conversationsIssuesCluster=${issue.cluster}`, { token: fx.admin.token })).body;
  assert.equal(
    inOrg.items.map((item: any) => item.id),
    [created.body.id],
  );

  const linked = await t.call('PATCH', `/v1/spaces/${space.id}/change-requests/${other.id}`, { token: fx.admin.token, body: { conversationsIssuesCluster: issue.cluster } });
  assert.is(linked.body.conversationsIssuesCluster, issue.cluster);
  const unlinked = await t.call('PATCH', `/v1/spaces/${space.id}/change-requests/${other.id}`, { token: fx.admin.token, body: { conversationsIssuesCluster: null } });
  assert.is(unlinked.body.conversationsIssuesCluster, undefined);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${other.id}`, { token: fx.admin.token })).body.conversationsIssuesCluster, undefined);

  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { conversationsIssuesCluster: 'nope' } }),
    400,
    `"conversationsIssuesCluster" nope is not a conversations issues cluster of organization ${fx.org.id}`,
  );
});

test('who may post and read; what a bad post is told', async () => {
  const valid = { id: 'p-1', parts: [user('How?')] };
  await assertGuarded(t, fx, 'POST', `${base()}/conversations`, { body: valid, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  for (const path of ['conversations', 'conversations-issues', 'conversations-clusters', 'conversations/p-1', 'conversations-issues/x', 'conversations-clusters/x']) {
    await assertGuarded(t, fx, 'GET', `${base()}/${path}`, { tooLow: { who: fx.reader, message: messages.needsOrgRole('edit', 'read') } });
  }
  assertErrorIs(await post({ id: 'p-2' }), 400, 'Invalid request body: "parts" is required');
  assertErrorIs(await post({ id: 'p-2', parts: [{ type: 'message', role: 'robot', body: 'x' }] }), 400, 'Invalid request body: "parts[0].role" must be one of "user", "assistant", "team-member"');
  assertErrorIs(await post({ id: '', parts: [] }), 400, 'Invalid request body: "id" must NOT have fewer than 1 characters');
  assertErrorIs(await post(Array.from({ length: 101 }, (_, i) => ({ id: `b-${i}`, parts: [] }))), 400, 'Invalid request body: the body must NOT have more than 100 items');
  assertErrorIs(await post([valid, { id: 'p-3' }]), 400, 'Invalid request body: "[1].parts" is required');
  assertErrorIs(await t.call('GET', `${base()}/conversations/missing`, { token: fx.editor.token }), 404, 'Conversation missing not found');
  assertErrorIs(await t.call('GET', `${base()}/conversations-clusters/missing`, { token: fx.editor.token }), 404, 'Conversations issues cluster missing not found');
  for (const id of ['p-2', 'p-3'])
    assertErrorIs(await t.call('GET', `${base()}/conversations/${id}`, { token: fx.editor.token }), 404, `Conversation ${id} not found`, 'nothing of a refused post is stored');
});

test.run();
