import type Koa from 'koa';
import type { AppSessionRecord } from '../storage/appSessions.js';
import type { StorageNode } from '../domain/storages/index.js';
import type { RouterContext } from '@koa/router';
import type { Database } from '../storage/db.js';
import type { MemberRole } from '../storage/members.js';
import type { OrganizationRecord } from '../storage/organizations.js';
import type { UserRecord } from '../storage/users.js';
import type { SpaceRecord } from '../storage/spaces.js';
import type { CollectionRecord } from '../storage/collections.js';
import type { ContentDeps, JobDeps } from '../domain/common/deps.js';
import type { Repositories } from '../domain/common/ports.js';
import { findContentGrantsCached, type Grants } from '../storage/contentGrants.js';
import type { Config } from './config.js';
import type { SiteToken } from '../domain/publishing/index.js';
import type { SiteSpacesReader } from '../domain/sites/index.js';
import type { Urls } from './urls.js';
import { userActor, type Actor } from '../domain/audit/index.js';
import type { SiteReader } from '../domain/publishing/index.js';
import type { InsightsRecorder } from '../domain/insights/index.js';
import type { JobClient } from '../workflows/client.js';

/** Per-request state, filled by the request context middleware, the policies and validation. */
export interface AppState {
  requestId: string;
  /** Routed here by another node of the instance (see middleware/storageRouting). */
  routed?: boolean;
  caller?: UserRecord;
  organization?: OrganizationRecord;
  /** The caller's role in `organization`; null for a guest. */
  role?: MemberRole | null;
  query: Record<string, unknown>;
  space?: SpaceRecord;
  /** The caller's effective role on `space` (see policies/spaceRoles). */
  spaceRole?: MemberRole;
  collection?: CollectionRecord;
  collectionRole?: MemberRole;
  /** The site token the request was authorized by, instead of a user (domain/publishing). */
  siteToken?: SiteToken;
  /**
   * Set before the policy on the routes of what is never published (told by their declared path,
   * whatever case the request's has): comments, a change request and its content, and the rest.
   */
  unpublishedRoute?: 'discussion' | 'change-request' | 'private';
  /** The web app's signed-in session (api/webApp): its caller is `caller`. Never read by the /v1 API. */
  appSession?: AppSessionRecord;
}

/** What every request can reach: set once on `app.context`. */
export interface AppServices {
  db: Database;
  config: Config;
  urls: Urls;
  jobs: JobClient;
  repositories: Repositories;
  /** Readers' events of the sites, counted in memory and written each second (domain/insights). */
  insights: InsightsRecorder;
  /** Set on an instance spread over storage nodes (QUIRE_STORAGE): this node, and the secret nodes mark routed requests with. */
  storageNode?: { node: StorageNode; secret: string };
}

export type AppContext = RouterContext<AppState, AppServices>;
export type Handler = (ctx: AppContext) => Promise<void>;
export type AppMiddleware = (ctx: AppContext, next: Koa.Next) => Promise<unknown>;

/** The authenticated caller; policies guarantee it on every route that needs one. */
/**
 * A path parameter of the route, for helpers several handlers share (a handler receives its own
 * typed: `handle`). A route whose path lacks it is a defect of the route table, not the caller's.
 */
export function pathParam(ctx: AppContext, name: string): string {
  const value = (ctx.params as Partial<Record<string, string>> | undefined)?.[name];
  if (value === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route has no :${name} parameter`);
  return value;
}

export function callerOf(ctx: AppContext): UserRecord {
  if (!ctx.state.caller) throw new Error('route reached without authentication');
  return ctx.state.caller;
}

/** The organization of the path, loaded and access-checked by the route's policy. */
export function organizationOf(ctx: AppContext): { organization: OrganizationRecord; role: MemberRole | null } {
  if (!ctx.state.organization || ctx.state.role === undefined) throw new Error('route reached without an organization policy');
  return { organization: ctx.state.organization, role: ctx.state.role };
}

/** Who makes a change through this request, for the audit log: `ui` from the web app (`/app`), `api` otherwise (the API, git). */
export function actorOf(ctx: AppContext): Actor {
  return userActor(callerOf(ctx), /^\/app(\/|$)/.test(ctx.path) ? 'ui' : 'api', ctx.state.requestId);
}

/** The space of the path, loaded and access-checked by the route's policy, with the caller's role on it. */
export function spaceOf(ctx: AppContext): { space: SpaceRecord; role: MemberRole; organizationRole: MemberRole | null } {
  if (!ctx.state.space || !ctx.state.spaceRole || ctx.state.role === undefined) throw new Error('route reached without a space policy');
  return { space: ctx.state.space, role: ctx.state.spaceRole, organizationRole: ctx.state.role };
}

export function collectionOf(ctx: AppContext): { collection: CollectionRecord; role: MemberRole; organizationRole: MemberRole | null } {
  if (!ctx.state.collection || !ctx.state.collectionRole || ctx.state.role === undefined) throw new Error('route reached without a collection policy');
  return { collection: ctx.state.collection, role: ctx.state.collectionRole, organizationRole: ctx.state.role };
}

/** What the domain commands need from a request: the database and the space repositories. */
export function contentDeps(ctx: AppContext): ContentDeps {
  return { db: ctx.db, repositories: ctx.repositories, dataDir: ctx.config.dataDir, jobs: ctx.jobs };
}

/** The same, with the job client and the retention, for commands that start or signal jobs. */
export function jobDeps(ctx: AppContext): JobDeps {
  return { db: ctx.db, repositories: ctx.repositories, dataDir: ctx.config.dataDir, jobs: ctx.jobs, retentionMs: ctx.config.spaceRetentionMs };
}

/** The caller's own grants on spaces and collections (from invite links), which can only raise a role. */
export function grantsOf(ctx: AppContext): Promise<Grants> {
  return findContentGrantsCached(ctx.db, callerOf(ctx).id);
}

/** Who reads a site through the API (a site search, a question): the site token's visitor and their claims, or the member. */
export async function siteReaderOf(ctx: AppContext): Promise<SiteReader> {
  const token = ctx.state.siteToken;
  return token ? { claims: token.claims ?? {} } : { member: { organizationRole: organizationOf(ctx).role, grants: await grantsOf(ctx) } };
}

/**
 * A POST under an organization has its writes re-checked against the policy (recheckPolicy); the
 * search index's refresh is the server's own bookkeeping, shared by later readers: it writes unchecked.
 */
export const indexingDeps = (ctx: AppContext): ContentDeps => ({ ...contentDeps(ctx), db: ctx.app.context.db });

/** Who reads a site's spaces: the site token, or the member with their role and grants. */
export async function siteSpacesReaderOf(ctx: AppContext): Promise<SiteSpacesReader> {
  return ctx.state.siteToken ? { siteToken: true } : { member: { role: organizationOf(ctx).role, grants: await grantsOf(ctx) } };
}
