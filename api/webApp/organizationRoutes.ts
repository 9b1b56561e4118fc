import type Router from '@koa/router';
import { normalizeSlug } from '../../domain/openapi/index.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import { searchPages } from '../../domain/spaces/index.js';
import { findContentGrantsCached } from '../../storage/contentGrants.js';
import { getIssueCluster } from '../../storage/issueClusters.js';
import { getOpenAPISpec, listOpenAPIVersions } from '../../storage/openapi.js';
import { callerOf, contentDeps, organizationOf, pathParam, type AppContext, type AppServices, type AppState } from '../context.js';
import { conversationActions, openAPIActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { signedIn } from './guards.js';
import { sendPage } from './layout.js';
import { issueClusterContent, openAPISpecContent, searchContent } from './organizationPages.js';

const organization = '/o/:organizationId';
const guarded = (role: Parameters<typeof inOrganization>[0]) => [signedIn, inOrganization(role).check] as never[];
/** Sections read for a search: enough for its first pages of results. */
const searchSectionLimit = 400;

/** An organization's search, and the pages its other `urls.app` lead to (an OpenAPI specification, a cluster of issues). */
export function addOrganizationRoutes(router: Router<AppState, AppServices>): void {
  // What the API's searchOrganizationContent finds (guests too: in what is shared with them).
  router.get(`${organization}/search`, ...guarded(null), async (ctx) => {
    const app = ctx as AppContext;
    const { organization: found, role } = organizationOf(app);
    const query = typeof ctx.query.q === 'string' ? ctx.query.q.trim().slice(0, 512) : '';
    const access = await organizationAccess(app.db, found.id, role, await findContentGrantsCached(app.db, callerOf(app).id));
    const pages = query ? (await searchPages(contentDeps(app), [...access.spaces.keys()], query, searchSectionLimit)).slice(0, 30) : [];
    sendPage(app, { title: query ? `Search: ${query}` : 'Search', content: searchContent(found, query, pages, (spaceId) => access.spaces.get(spaceId)?.space.title || 'Untitled space') });
  });

  router.get(`${organization}/openapi/:specSlug`, ...guarded(openAPIActions.view), async (ctx) => {
    const app = ctx as AppContext;
    const { organization: found } = organizationOf(app);
    const spec = await getOpenAPISpec(app.db, found.id, normalizeSlug(pathParam(app, 'specSlug')));
    const versions = await listOpenAPIVersions(app.db, spec.id, { limit: 20, order: 'desc' });
    sendPage(app, { title: spec.slug, content: openAPISpecContent(found, spec, versions.items) });
  });

  router.get(`${organization}/conversations/clusters/:clusterId`, ...guarded(conversationActions.view), async (ctx) => {
    const app = ctx as AppContext;
    const { organization: found } = organizationOf(app);
    const cluster = await getIssueCluster(app.db, found.id, pathParam(app, 'clusterId'));
    sendPage(app, { title: cluster.label, content: issueClusterContent(found, cluster) });
  });
}
