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
  /** Role `create`: one below admin. */
  creator: Person;
  reader: Person;
  editor: Person;
  guest: Person;
  /** A member of another organization only. */
  outsider: Person;
  /** The outsider's organization. */
  elsewhere: { id: string; [key: string]: unknown };
}

/** An organization made through the API, with an admin, a creator, a reader, an editor, a guest, and an outsider. */
export async function organizationWithMembers(t: TestServer, title = 'Acme Docs'): Promise<OrganizationFixture> {
  const admin = await t.user();
  const created = await t.call('POST', '/v1/orgs', { token: admin.token, body: { title } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const org = created.body;
  const [creator, reader, editor, guest, outsider] = await Promise.all([t.user(), t.user(), t.user(), t.user(), t.user()]);
  const invited = await t.call('POST', `/v1/orgs/${org.id}/invites`, {
    token: admin.token,
    body: {
      emails: [
        { email: creator.email, role: 'create' },
        { email: reader.email, role: 'read' },
        { email: editor.email, role: 'edit' },
        { email: guest.email, role: null },
      ],
    },
  });
  assert.is(invited.status, 200, JSON.stringify(invited.body));
  for (const person of [creator, reader, editor, guest]) await acceptInvitation(t, org.id, person);
  const other = await t.call('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Elsewhere Inc' } });
  assert.is(other.status, 201);
  return { org, admin, creator, reader, editor, guest, outsider, elsewhere: other.body };
}

/** The invitee accepts the organization's invitation (no one joins without their own action). */
export async function acceptInvitation(t: TestServer, organizationId: string, person: { token: string }): Promise<void> {
  // A Quire operation: test/helpers/upstream.ts has no schema to check its answer against, so not t.call.
  const accepted = await fetch(`${t.url}/v1/user/invitations/${organizationId}`, { method: 'POST', headers: { authorization: `Bearer ${person.token}` } });
  assert.is(accepted.status, 200, await accepted.text());
}

/** The messages every operation may answer with. */
export const messages = {
  noToken: 'Authentication required: send an Authorization: Bearer <token> header',
  badToken: 'The bearer token is not valid',
  /** The 403 of an organization-role policy: `needsOrgRole('admin', 'create')`; `or`: its alternative ("the member themself", "an owner of the team"). */
  needsOrgRole(role: string, you: string, or?: string): string {
    return `This operation needs the ${role} role in the organization${or ? ` (or being ${or})` : ''}; you are ${you}`;
  },
  /** The same for a route of one site, where a role given on the site counts too. */
  needsSiteRole(role: string, you: string): string {
    return `This operation needs the ${role} role in the organization or on the site; you are ${you}`;
  },
  /** What a caller outside the organization gets for the first resource of the path. */
  notFoundFor(path: string): string {
    // 0.202.0's import runs live under `/org/` (singular).
    const [, kind, id] = /^\/v1\/(orgs|org|spaces|collections|custom-hostnames)\/([^/?]+)/.exec(path) ?? [];
    if (!kind || !id) throw new Error(`${path} names no organization, space or collection`);
    // A hostname's site is unknown to a stranger, and its organization unnamed.
    if (kind === 'custom-hostnames') return `No site has the custom hostname "${decodeURIComponent(id)}"`;
    return `${{ orgs: 'Organization', org: 'Organization', spaces: 'Space', collections: 'Collection' }[kind]} ${decodeURIComponent(id)} not found`;
  },
};

/** Asserts the upstream error body with this status and exactly this message (a RegExp must match it whole). */
export function assertErrorIs(response: Response, status: number, message: string | RegExp, context = ''): void {
  const where = context ? `${context}: ` : '';
  assert.is(response.status, status, `${where}expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  assert.is(response.body?.error?.code, status, `${where}error body: ${JSON.stringify(response.body)}`);
  if (typeof message === 'string') assert.is(response.body.error.message, message, where);
  else assert.match(response.body.error.message, new RegExp(`^(?:${message.source})$`, message.flags), where);
}

/**
 * The checks every operation gets: no token → 401, a member of another organization → 404,
 * and, when given, a member whose role is one too low → 403 with exactly this message.
 */
export async function assertGuarded(t: TestServer, fx: OrganizationFixture, method: string, path: string, options: { body?: unknown; tooLow?: { who: Person; message: string } } = {}): Promise<void> {
  const where = `${method} ${path}`;
  assertErrorIs(await t.call(method, path, { body: options.body }), 401, messages.noToken, where);
  assertErrorIs(await t.call(method, path, { body: options.body, token: 'qr_not-a-real-token' }), 401, messages.badToken, where);
  assertErrorIs(await t.call(method, path, { body: options.body, token: fx.outsider.token }), 404, messages.notFoundFor(path), where);
  if (options.tooLow) assertErrorIs(await t.call(method, path, { body: options.body, token: options.tooLow.who.token }), 403, options.tooLow.message, where);
}
