import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptInvitation } from '../../domain/organizations/index.js';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('pagination');
let t: TestServer;
let admin: { id: string; token: string };
let members: string;
let orgId: string;

async function invite(count: number, prefix: string) {
  for (let start = 0; start < count; start += 100) {
    const emails = Array.from({ length: Math.min(100, count - start) }, (_, i) => `${prefix}${start + i}@example.com`);
    const response = await t.call('POST', `/v1/orgs/${orgId}/invites`, { token: admin.token, body: { emails, role: 'read' } });
    assert.is(response.status, 200);
    // Each invitee accepts (what POST /v1/user/invitations/{id} runs): they have no token here.
    for (const userId of response.body.users as string[]) await acceptInvitation(t.server.db, { type: 'user', id: userId, source: 'api' }, orgId, userId);
  }
}

async function walk(path: string, limit: number): Promise<{ ids: string[]; pages: number; counts: number[] }> {
  const ids: string[] = [];
  const counts: number[] = [];
  let page: string | undefined;
  let pages = 0;
  do {
    const response = await t.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`, { token: admin.token });
    assert.is(response.status, 200);
    ids.push(...response.body.items.map((item: { id: string }) => item.id));
    counts.push(response.body.count);
    page = response.body.next?.page;
    pages += 1;
  } while (page);
  return { ids, pages, counts };
}

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    admin = await t.user();
    orgId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Paged' } })).body.id;
    members = `/v1/orgs/${orgId}/members`;
    await invite(119, 'first');
  }),
);
test.after(async () => t.close());

test('limit defaults to 50; next is absent on the last page; count is the total', async () => {
  const first = await t.call('GET', members, { token: admin.token });
  assert.is(first.body.items.length, 50);
  assert.is(first.body.count, 120);
  assert.type(first.body.next.page, 'string');
  const walked = await walk(members, 50);
  assert.is(walked.pages, 3);
  assert.is(walked.ids.length, 120);
  assert.is(new Set(walked.ids).size, 120, 'no member is listed twice');
  const all = await t.call('GET', `${members}?limit=1000`, { token: admin.token });
  assert.is(all.body.items.length, 120);
  assert.is(all.body.next, undefined);
});

test('limit above 1000, negative or not a number is a 400; a foreign cursor is a 400', async () => {
  assertErrorIs(await t.call('GET', `${members}?limit=1001`, { token: admin.token }), 400, 'Invalid query parameter: "limit" must be <= 1000');
  assertErrorIs(await t.call('GET', `${members}?limit=-5`, { token: admin.token }), 400, 'Invalid query parameter: "limit" must be >= 0');
  assertErrorIs(await t.call('GET', `${members}?limit=ten`, { token: admin.token }), 400, 'Invalid query parameter: "limit" must be a whole number written in decimal digits');
  assertErrorIs(await t.call('GET', `${members}?page=garbage`, { token: admin.token }), 400, '"page" is not a cursor this list returned: "garbage"');
  assertErrorIs(await t.call('GET', `${members}?page=${Buffer.from('[1]').toString('base64url')}`, { token: admin.token }), 400, '"page" is not a cursor this list returned: "WzFd"');
  const descending = await t.call('GET', `${members}?limit=10&order=desc`, { token: admin.token });
  assertErrorIs(
    await t.call('GET', `${members}?limit=10&order=asc&page=${descending.body.next.page}`, { token: admin.token }),
    400,
    `"page" is not a cursor this list returned: "${descending.body.next.page}"`,
  );
  assertErrorIs(
    await t.call('GET', `${members}?limit=10&role=read&page=${descending.body.next.page}`, { token: admin.token }),
    400,
    `"page" is not a cursor this list returned: "${descending.body.next.page}"`,
  );
  await t.call('PUT', `/v1/orgs/${orgId}/teams`, { token: admin.token, body: { title: 'One' } });
  await t.call('PUT', `/v1/orgs/${orgId}/teams`, { token: admin.token, body: { title: 'Two' } });
  const teams = await t.call('GET', `/v1/orgs/${orgId}/teams?limit=1`, { token: admin.token });
  assertErrorIs(await t.call('GET', `${members}?page=${teams.body.next.page}`, { token: admin.token }), 400, `"page" is not a cursor this list returned: "${teams.body.next.page}"`);
});

test('cursors stay valid while members join: no repeats, no skips', async () => {
  for (const order of ['desc', 'asc']) {
    const before = (await walk(`${members}?order=${order}`, 1000)).ids;
    const first = await t.call('GET', `${members}?order=${order}&limit=40`, { token: admin.token });
    await invite(30, `during-${order}-`);
    const seen = first.body.items.map((item: { id: string }) => item.id);
    let page: string | undefined = first.body.next.page;
    while (page) {
      const next = await t.call('GET', `${members}?order=${order}&limit=40&page=${encodeURIComponent(page)}`, { token: admin.token });
      seen.push(...next.body.items.map((item: { id: string }) => item.id));
      page = next.body.next?.page;
    }
    assert.is(new Set(seen).size, seen.length, `${order}: no repeats`);
    for (const id of before) assert.ok(seen.includes(id), `${order}: ${id} was skipped`);
  }
});

test.run();
