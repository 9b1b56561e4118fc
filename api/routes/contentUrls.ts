import type { FromSchema } from 'json-schema-to-ts';
import { changeRequestOf, readChangeRequestView } from '../../domain/changeRequests/index.js';
import { resolvePublishedUrl } from '../../domain/publishing/index.js';
import { readRevisionWithSizes, readSpaceView, revisionPage, revisionPageAtPath } from '../../domain/spaces/index.js';
import type { RevisionPage } from '../../engine/index.js';
import { collectionOf, contentDeps, spaceOf, type AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { inCollection, inSpace, signedIn } from '../policies/index.js';
import { presentChangeRequestView } from '../presenters/changeRequest.js';
import { presentCollection } from '../presenters/collection.js';
import { presentPage, revisionView } from '../presenters/revision.js';
import { presentSpaceView } from '../presenters/space.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// Which content a URL shows (getContentByUrl, 0.202.0): one of the app's own addresses (a
// collection, a space, a change request, a page of either), or a page of a published site. The
// caller must read what it names: the collection's or space's own policy decides, as it would on
// that content's own routes.
export const contentUrlRoutes = new RouteTable();
const routes = contentUrlRoutes;

const contentUrlQuery = {
  type: 'object',
  required: ['url'],
  properties: { url: { type: 'string', format: 'uri', maxLength: 2048 } },
  additionalProperties: false,
} as const;

routes.get('/urls/content', 'getContentByUrl', signedIn, handle({ query: contentUrlQuery }, contentAtUrl));

/** What a URL names, before anyone's access is judged. */
type Named = { collectionId: string } | { spaceId: string; changeRequest?: string; pageId?: string; pagePath?: string };

const appCollection = /^\/app\/c\/([^/]+)\/?$/;
const appSpace = /^\/app\/s\/([^/]+)(?:\/~\/changes\/(\d+))?(?:\/p\/([^/]+)(?:\/(?:edit|history))?)?\/?$/;

async function named(ctx: AppContext, url: URL): Promise<Named | undefined> {
  const base = new URL(ctx.urls.base);
  if (url.origin === base.origin && url.pathname.startsWith(`${base.pathname.replace(/\/$/, '')}/app/`)) {
    const path = url.pathname.slice(base.pathname.replace(/\/$/, '').length);
    const collection = appCollection.exec(path);
    if (collection) return { collectionId: decodeURIComponent(collection[1]!) };
    const space = appSpace.exec(path);
    if (space) return { spaceId: decodeURIComponent(space[1]!), ...(space[2] ? { changeRequest: space[2] } : {}), ...(space[3] ? { pageId: decodeURIComponent(space[3]) } : {}) };
    return undefined;
  }
  // A published page, as a visitor without claims reaches it.
  const found = await resolvePublishedUrl(contentDeps(ctx), { url: url.toString(), publicBase: ctx.urls.base, visitor: {}, mayPreview: async () => false }).catch(() => undefined);
  if (!found || 'redirect' in found) return undefined;
  return { spaceId: found.siteSpace.spaceId, pagePath: found.pathname };
}

async function contentAtUrl(ctx: AppContext, { query }: { query: FromSchema<typeof contentUrlQuery> }) {
  const target = await named(ctx, new URL(query.url));
  if (!target) throw notFound(`No content of this Quire is at ${query.url}`);
  if ('collectionId' in target) {
    ctx.params = { ...ctx.params, collectionId: target.collectionId };
    await inCollection('read').check(ctx, async () => {
      const { collection, role, organizationRole } = collectionOf(ctx);
      ctx.body = { collection: presentCollection(collection, role, organizationRole, ctx.urls) };
    });
    return;
  }
  ctx.params = { ...ctx.params, spaceId: target.spaceId };
  await inSpace('read').check(ctx, async () => {
    const { space, role } = spaceOf(ctx);
    const deps = contentDeps(ctx);
    const changeRequest = target.changeRequest ? await changeRequestOf(deps, space, target.changeRequest) : undefined;
    const found = await readRevisionWithSizes(deps, space.id, changeRequest?.branch);
    let page: RevisionPage | undefined;
    if (target.pageId) page = revisionPage(found.revision, target.pageId);
    else if (target.pagePath !== undefined) page = target.pagePath === '' ? found.revision.pages[0] : revisionPageAtPath(found.revision, target.pagePath);
    ctx.body = {
      space: presentSpaceView(await readSpaceView(deps, space), role, ctx.urls),
      ...(changeRequest ? { changeRequest: presentChangeRequestView(await readChangeRequestView(deps, changeRequest), ctx.urls) } : {}),
      ...(page ? { page: presentPage(revisionView(space.id, found, ctx.urls), page, 'markdown') } : {}),
    };
  });
}
