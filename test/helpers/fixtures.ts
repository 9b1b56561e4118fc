import * as assert from 'uvu/assert';
import type { Response, TestServer } from './server.js';

export interface Person {
  id: string;
  email: string;
  token: string;
}

export interface OrganizationFixture {
  org: { id: string; [key: string]: unknown };
  admin: Person;
  reader: Person;
  editor: Person;
  guest: Person;
  /** A member of another organization only. */
  outsider: Person;
}

/** An organization made through the API, with an admin, a reader, an editor, a guest, and an outsider. */
export async function organizationWithMembers(t: TestServer, title = 'Acme Docs'): Promise<OrganizationFixture> {
  const admin = await t.user();
  const created = await t.call('POST', '/v1/orgs', { token: admin.token, body: { title } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const org = created.body;
  const [reader, editor, guest, outsider] = await Promise.all([t.user(), t.user(), t.user(), t.user()]);
  const invited = await t.call('POST', `/v1/orgs/${org.id}/invites`, {
    token: admin.token,
    body: {
      emails: [
        { email: reader.email, role: 'read' },
        { email: editor.email, role: 'edit' },
        { email: guest.email, role: null },
      ],
    },
  });
  assert.is(invited.status, 200, JSON.stringify(invited.body));
  for (const person of [reader, editor, guest]) await acceptInvitation(t, org.id, person);
  const other = await t.call('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Elsewhere Inc' } });
  assert.is(other.status, 201);
  return { org, admin, reader, editor, guest, outsider };
}

/** The invitee accepts the organization's invitation (no one joins without their own action). */
export async function acceptInvitation(t: TestServer, organizationId: string, person: { token: string }): Promise<void> {
  // A Quire operation: test/helpers/upstream.ts has no schema to check its answer against, so not t.call.
  const accepted = await fetch(`${t.url}/v1/user/invitations/${organizationId}`, { method: 'POST', headers: { authorization: `Bearer ${person.token}` } });
  assert.is(accepted.status, 200, await accepted.text());
}

/** Asserts the upstream error body with this status and a message that names the problem. */
export function assertError(response: Response, status: number, messagePart: string | RegExp): void {
  assert.is(response.status, status, `expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  assert.type(response.body?.error, 'object', `error body: ${JSON.stringify(response.body)}`);
  assert.is(response.body.error.code, status);
  assert.type(response.body.error.message, 'string');
  if (typeof messagePart === 'string') assert.ok(response.body.error.message.includes(messagePart), `message "${response.body.error.message}" lacks "${messagePart}"`);
  else assert.match(response.body.error.message, messagePart);
}

/**
 * The checks every operation gets: no token → 401, a member of another organization → 404,
 * and, when given, a member whose role is too low → 403.
 */
export async function assertGuarded(
  t: TestServer,
  fx: OrganizationFixture,
  method: string,
  path: string,
  options: { body?: unknown; tooLow?: Person } = {},
): Promise<void> {
  assertError(await t.call(method, path, { body: options.body }), 401, 'Authorization');
  assertError(await t.call(method, path, { body: options.body, token: 'qr_not-a-real-token' }), 401, 'not valid');
  assertError(await t.call(method, path, { body: options.body, token: fx.outsider.token }), 404, 'not found');
  if (options.tooLow) assertError(await t.call(method, path, { body: options.body, token: options.tooLow.token }), 403, 'role');
}
