// What a site token (api/auth/siteToken.ts) reads, where a route's policy lets one in.
import type Koa from 'koa';
import { findOrganizationCached } from '../../storage/organizations.js';
import type { MemberRole } from '../../storage/members.js';
import { contentDeps, type AppContext, pathParam } from '../context.js';
import { siteOfToken, siteTokenReadsRevision, spaceReadableBySiteToken, tokenPreviewsChangeRequest, type SiteToken } from '../../domain/publishing/index.js';
import { forbidden, notFound } from '../errors.js';

/**
 * A site token (domain/publishing) reads its site's published content and nothing else: GETs on
 * the spaces its site spaces show (conditions judged on its claims), their primary branch and its
 * history, never a change request, never a write.
 */
export async function siteTokenReads(ctx: AppContext, next: Koa.Next, role: MemberRole, token: SiteToken, readingMethods: string[]) {
  if (role !== 'read' || !readingMethods.includes(ctx.method)) throw forbidden('A site token only reads the published content of its site');
  const space = await spaceReadableBySiteToken(ctx, token, pathParam(ctx, 'spaceId'));
  if (!space) throw notFound(`Space ${ctx.params.spaceId} not found`);
  if (ctx.state.unpublishedRoute === 'discussion') throw forbidden('A site token reads published content: comments are not published');
  if (ctx.state.unpublishedRoute === 'private') throw forbidden('A site token reads published content only');
  if (ctx.state.unpublishedRoute === 'change-request' && !(ctx.params.changeRequestId !== undefined && (await tokenPreviewsChangeRequest(ctx, token, space.id, ctx.params.changeRequestId)))) {
    throw forbidden('A site token reads published content: change requests are not published, but for the one a preview URL names');
  }
  if (ctx.params.revisionId !== undefined && !(await siteTokenReadsRevision(contentDeps(ctx), token, space, ctx.params.revisionId))) throw notFound(`Revision ${ctx.params.revisionId} not found`);
  ctx.state.space = space;
  ctx.state.spaceRole = 'read';
  ctx.state.role = null;
  ctx.state.siteToken = token;
  ctx.state.organization = await findOrganizationCached(ctx.db, space.organizationId);
  return next();
}

/** A site token on a route of its own site (and organization), for a GET: the site's published profile, structure and the like. */
export async function siteTokenReadsSite(ctx: AppContext, next: Koa.Next, token: SiteToken, readingMethods: string[]) {
  if (!readingMethods.includes(ctx.method)) throw forbidden('A site token only reads the published content of its site');
  const site = ctx.params.organizationId === token.organization && ctx.params.siteId === token.site ? await siteOfToken(ctx, token) : undefined;
  if (!site) throw notFound(`Site ${ctx.params.siteId} not found`);
  return readingForSite(ctx, next, token, site.organizationId);
}

/** A site token on a GET of its organization's content that published pages use (the route narrows what it answers). */
export async function siteTokenReadsOrganization(ctx: AppContext, next: Koa.Next, token: SiteToken) {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw forbidden('A site token only reads the published content of its site');
  const site = ctx.params.organizationId === token.organization ? await siteOfToken(ctx, token) : undefined;
  if (!site) throw notFound(`Organization ${ctx.params.organizationId} not found`);
  return readingForSite(ctx, next, token, site.organizationId);
}

/** The route runs for the site token, in its site's organization, with no member role. */
async function readingForSite(ctx: AppContext, next: Koa.Next, token: SiteToken, organizationId: string) {
  ctx.state.organization = await findOrganizationCached(ctx.db, organizationId);
  if (!ctx.state.organization) throw notFound(`Organization ${ctx.params.organizationId} not found`);
  ctx.state.role = null;
  ctx.state.siteToken = token;
  return next();
}
