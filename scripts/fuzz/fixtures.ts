import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** The objects the fuzzer's path parameters point at, made through the API as a client would. */
export interface Fixtures {
  organizationId: string;
  /** A second member (not the caller), for the member and team-member operations. */
  memberId: string;
  teamId: string;
  samlProviderId: string;
  inviteId: string;
  collectionId: string;
  spaceId: string;
  revisionId: string;
  pageId: string;
  pagePath: string;
  fileId: string;
  emailDomain: string;
}

type Call = <T = any>(method: string, path: string, body?: unknown) => Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A token for another user, the way an operator hands one out (`npm run admin -- token create`). */
export function operatorToken(root: string, dataDir: string, email: string): string {
  const output = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'api/cli/admin.ts'), 'token', 'create', '--email', email], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  const token = output.trim().split('\n').pop();
  if (!token) throw new Error(`admin token create printed no token: ${output}`);
  return token;
}

export function apiClient(base: string, token: string): Call {
  return async (method, path, body) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`fixture ${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** `call` acts as the organization's admin; `memberCall` as another user, who joins through an invite link. */
export async function createFixtures(call: Call, memberCall: Call): Promise<Fixtures> {
  const organizationId = (await call<{ items: { id: string }[] }>('GET', '/orgs')).items[0]!.id;
  const org = `/orgs/${organizationId}`;
  const joinLink = await call<{ id: string }>('POST', `${org}/link-invites`, { role: 'edit' });
  await memberCall('POST', `${org}/invites/${joinLink.id}`, {});
  const member = { user: await memberCall<{ id: string }>('GET', '/user') };
  const team = await call<{ id: string }>('PUT', `${org}/teams`, { title: 'Fuzzed team' });
  await call('PUT', `${org}/teams/${team.id}/members/${member.user.id}`, {});
  const saml = await call<{ id: string }>('POST', `${org}/saml`, { label: 'Fuzzed provider' });
  const invite = await call<{ id: string }>('POST', `${org}/link-invites`, { role: 'read' });
  const collection = await call<{ id: string }>('POST', `${org}/collections`, { title: 'Fuzzed collection' });
  const space = await call<{ id: string }>('POST', `${org}/spaces`, { title: 'Fuzzed space', parent: collection.id, template: { id: 'getting-started' } });
  const revision = await call<{ id: string }>('GET', `/spaces/${space.id}/content`);
  const pages = await call<{ pages: { id: string; path?: string; type: string; pages?: unknown[] }[] }>('GET', `/spaces/${space.id}/content/pages`);
  const page = pages.pages.find((item) => item.type === 'document' && item.path);
  const files = await call<{ items: { id: string }[] }>('GET', `/spaces/${space.id}/content/files`);
  if (!page || !files.items[0]) throw new Error('the getting-started template has no page or no file');
  return {
    organizationId,
    memberId: member.user.id,
    teamId: team.id,
    samlProviderId: saml.id,
    inviteId: invite.id,
    collectionId: collection.id,
    spaceId: space.id,
    revisionId: revision.id,
    pageId: page.id,
    pagePath: page.path!,
    fileId: files.items[0].id,
    emailDomain: 'example.com',
  };
}

/**
 * Objects of the newer areas (change requests, comments, sites), each made if it can be: a path
 * parameter whose object couldn't be made stays unbound (the fuzzer then meets 404s there), and
 * the reason is logged.
 */
export async function createNewerFixtures(call: Call, fixtures: Fixtures, log: (line: string) => void): Promise<Record<string, string>> {
  const bound: Record<string, string> = {};
  const attempt = async (names: string, make: () => Promise<void>) => {
    try {
      await make();
    } catch (error) {
      log(`no ${names} to fuzz with: ${(error as Error).message}`);
    }
  };
  const space = `/spaces/${fixtures.spaceId}`;
  await attempt('changeRequestId', async () => {
    bound.changeRequestId = (await call<{ id: string }>('POST', `${space}/change-requests`, { subject: 'Fuzzed change' })).id;
  });
  await attempt('commentId, commentReplyId', async () => {
    bound.commentId = (await call<{ id: string }>('POST', `${space}/comments`, { body: { markdown: 'Fuzzed comment' } })).id;
    bound.commentReplyId = (await call<{ id: string }>('POST', `${space}/comments/${bound.commentId}/replies`, { body: { markdown: 'Fuzzed reply' } })).id;
  });
  const sites = `/orgs/${fixtures.organizationId}/sites`;
  await attempt('siteId', async () => {
    bound.siteId = (await call<{ id: string }>('POST', sites, { title: 'Fuzzed site', spaces: [fixtures.spaceId] })).id;
  });
  if (!bound.siteId) return bound;
  const site = `${sites}/${bound.siteId}`;
  await attempt('siteSpaceId', async () => {
    bound.siteSpaceId = (await call<{ items: { id: string }[] }>('GET', `${site}/site-spaces`)).items[0]!.id;
  });
  await attempt('siteSectionId', async () => {
    bound.siteSectionId = (await call<{ id: string }>('POST', `${site}/sections`, { spaceId: fixtures.spaceId, title: 'Fuzzed section' })).id;
  });
  await attempt('siteSectionGroupId', async () => {
    bound.siteSectionGroupId = (await call<{ id: string }>('POST', `${site}/section-groups`, { title: 'Fuzzed group' })).id;
  });
  await attempt('shareLinkId', async () => {
    bound.shareLinkId = (await call<{ id: string }>('POST', `${site}/share-links`, { name: 'Fuzzed link' })).id;
  });
  return bound;
}
