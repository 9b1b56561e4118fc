import { createHmac } from 'node:crypto';
import { findSiteById } from '../../storage/sites.js';
import { listPublishedPlacesOfSpace } from '../../storage/siteStructure.js';
import type { ContentDeps } from '../common/deps.js';
import type { RevalidationSubject } from '../common/ports.js';

/**
 * The renderer cache tags a change makes stale: `site:<id>` for every published site showing the
 * space (and `space:<id>`), or the site's own tag. A space no published site shows: none.
 */
export async function revalidationTags(deps: Pick<ContentDeps, 'db'>, subject: RevalidationSubject): Promise<string[]> {
  if ('siteId' in subject) return (await findSiteById(deps.db, subject.siteId)) ? [`site:${subject.siteId}`] : [];
  const sites = [...new Set((await listPublishedPlacesOfSpace(deps.db, subject.spaceId)).map((place) => place.siteId))];
  return sites.length === 0 ? [] : [...sites.map((siteId) => `site:${siteId}`), `space:${subject.spaceId}`];
}

/** How long the renderer has to answer one post. */
const postTimeoutMs = 10_000;

/**
 * `POST <renderer>/~gitbook/revalidate` with `{tags}` and the body's HMAC-SHA256 (the shared secret)
 * in `x-gitbook-signature`, as GitBook's renderer checks it. The renderer is the operator's own
 * (configured, often on loopback), not a user's URL: it is fetched directly. Throws unless 2xx.
 */
export async function notifyRenderer(renderer: { url: string; secret: string }, tags: string[]): Promise<void> {
  const body = JSON.stringify({ tags });
  const signature = createHmac('sha256', renderer.secret).update(body).digest('hex');
  const response = await fetch(`${renderer.url}/~gitbook/revalidate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gitbook-signature': signature },
    body,
    signal: AbortSignal.timeout(postTimeoutMs),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the renderer answered ${response.status} to its revalidation`);
}
