import { deleteSiteQuestions } from './siteQuestions.js';
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { containsPattern, mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export const siteTypes = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const siteVisibilities = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteType = (typeof siteTypes)[number];
export type SiteVisibility = (typeof siteVisibilities)[number];
export type AgentsContext = 'included' | 'excluded';

export interface SiteRecord {
  id: string;
  organizationId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  basename: string | null;
  hostname: string | null;
  proxyOrigin: string | null;
  published: boolean;
  adaptiveContent: boolean;
  agentsContext: AgentsContext;
  createdAt: string;
  /** How many site spaces the site holds, counted when the row is read. */
  siteSpaceCount: number;
}

interface SiteRow {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  visibility: string;
  basename: string | null;
  hostname: string | null;
  proxy_origin: string | null;
  published: number;
  adaptive_content: number;
  agents_context: string;
  created_at: string;
  site_space_count: number;
}

/** Site spaces whose space is in the bin are left out until it is restored (docs/decisions/sites.md, *Docs sites*). */
const siteColumns = `sites.*, (SELECT COUNT(*) FROM site_spaces JOIN spaces ON spaces.id = site_spaces.space_id WHERE site_spaces.site_id = sites.id AND spaces.deleted_at IS NULL) AS site_space_count`;

function toSite(row: SiteRow): SiteRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type as SiteType,
    title: row.title,
    visibility: row.visibility as SiteVisibility,
    basename: row.basename,
    hostname: row.hostname,
    proxyOrigin: row.proxy_origin,
    published: row.published === 1,
    adaptiveContent: row.adaptive_content === 1,
    agentsContext: row.agents_context as AgentsContext,
    createdAt: row.created_at,
    siteSpaceCount: row.site_space_count,
  };
}

export async function insertSite(db: Queryable, input: { organizationId: string; type: SiteType; title: string; visibility: SiteVisibility }): Promise<string> {
  const id = newId();
  await db.run('INSERT INTO sites (id, organization_id, type, title, visibility, created_at) VALUES (?, ?, ?, ?, ?, ?)', [id, input.organizationId, input.type, input.title, input.visibility, now()]);
  return id;
}

/** The site, only when it belongs to the organization. */
export async function findSite(db: Queryable, organizationId: string, siteId: string): Promise<SiteRecord | undefined> {
  const row = await db.get<SiteRow>(`SELECT ${siteColumns} FROM sites WHERE id = ? AND organization_id = ?`, [siteId, organizationId]);
  return row && toSite(row);
}

/** A site by id alone, or by the custom hostname recorded on it (published content lookups by URL). */
export async function findSiteById(db: Queryable, siteId: string): Promise<SiteRecord | undefined> {
  const row = await db.get<SiteRow>(`SELECT ${siteColumns} FROM sites WHERE id = ?`, [siteId]);
  return row && toSite(row);
}

/** findSiteById through the read cache (the URL lookups every page view starts with). */
export function findSiteByIdCached(db: Database, siteId: string): Promise<SiteRecord | undefined> {
  return db.cached(`site:${siteId}`, ['sites', 'site_spaces', 'spaces'], () => findSiteById(db, siteId));
}

export async function findSiteByHostname(db: Queryable, hostname: string): Promise<SiteRecord | undefined> {
  const row = await db.get<SiteRow>(`SELECT ${siteColumns} FROM sites WHERE hostname = ? ORDER BY created_at, id LIMIT 1`, [hostname]);
  return row && toSite(row);
}

export async function getSite(db: Queryable, organizationId: string, siteId: string): Promise<SiteRecord> {
  const site = await findSite(db, organizationId, siteId);
  if (!site) throw notFound(`Site ${siteId}`);
  return site;
}

export interface SiteFilters {
  space?: string;
  title?: string;
  published?: boolean;
  type?: string[];
}

/** Oldest first; `title` matches anywhere, case-insensitively; `space`: sites showing that space. */
export async function listSites(db: Queryable, organizationId: string, filters: SiteFilters, request: PageRequest): Promise<Page<SiteRecord>> {
  const where = ['sites.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (filters.space !== undefined) {
    where.push('EXISTS (SELECT 1 FROM site_spaces WHERE site_spaces.site_id = sites.id AND site_spaces.space_id = ?)');
    params.push(filters.space);
  }
  if (filters.title !== undefined) {
    where.push("sites.title LIKE ? ESCAPE '\\'");
    params.push(containsPattern(filters.title));
  }
  if (filters.published !== undefined) {
    where.push('sites.published = ?');
    params.push(filters.published ? 1 : 0);
  }
  if (filters.type?.length) {
    where.push(`sites.type IN (${filters.type.map(() => '?').join(', ')})`);
    params.push(...filters.type);
  }
  const page = await paginate<SiteRow>(
    db,
    { select: siteColumns, from: 'sites', where: where.join(' AND '), params, sort: ['sites.created_at', 'sites.id'], key: (row) => [row.created_at, row.id] },
    { ...request, order: 'asc' },
  );
  return mapPage(page, toSite);
}

export interface SiteChanges {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string | null;
  hostname?: string | null;
  proxyOrigin?: string | null;
  published?: boolean;
  adaptiveContent?: boolean;
  agentsContext?: AgentsContext;
}

const siteChangeColumns: Record<keyof SiteChanges, string> = {
  title: 'title',
  visibility: 'visibility',
  basename: 'basename',
  hostname: 'hostname',
  proxyOrigin: 'proxy_origin',
  published: 'published',
  adaptiveContent: 'adaptive_content',
  agentsContext: 'agents_context',
};

export async function updateSite(db: Queryable, siteId: string, changes: SiteChanges): Promise<void> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined) as Array<[keyof SiteChanges, unknown]>;
  if (entries.length === 0) return;
  await db.run(`UPDATE sites SET ${entries.map(([key]) => `${siteChangeColumns[key]} = ?`).join(', ')} WHERE id = ?`, [
    ...entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)),
    siteId,
  ]);
}

/** False when there was no such site. Its structure and share links go with it. */
/** Deletes the site; its readers' counts and questions and the roles given on it go with it. */
export async function deleteSite(db: Queryable, organizationId: string, siteId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM sites WHERE id = ? AND organization_id = ?', [siteId, organizationId]);
  if (changes === 0) return false;
  await db.run('DELETE FROM site_insight_days WHERE site_id = ?', [siteId]);
  await db.run('DELETE FROM site_segment_days WHERE site_id = ?', [siteId]);
  await deleteSiteQuestions(db, siteId);
  await db.run('DELETE FROM custom_hostname_checks WHERE site_id = ?', [siteId]);
  await db.run("DELETE FROM content_grants WHERE target_kind = 'site' AND target_id = ?", [siteId]);
  await db.run("DELETE FROM team_content_grants WHERE target_kind = 'site' AND target_id = ?", [siteId]);
  return true;
}

export interface AdaptiveSchemaRecord {
  jsonSchema: Record<string, unknown>;
  updatedAt: string;
}

export async function findAdaptiveSchema(db: Queryable, siteId: string): Promise<AdaptiveSchemaRecord | undefined> {
  const row = await db.get<{ adaptive_schema: string | null; adaptive_schema_updated_at: string | null }>('SELECT adaptive_schema, adaptive_schema_updated_at FROM sites WHERE id = ?', [siteId]);
  if (!row?.adaptive_schema || !row.adaptive_schema_updated_at) return undefined;
  return { jsonSchema: JSON.parse(row.adaptive_schema) as Record<string, unknown>, updatedAt: row.adaptive_schema_updated_at };
}

export async function setAdaptiveSchema(db: Queryable, siteId: string, jsonSchema: Record<string, unknown>): Promise<AdaptiveSchemaRecord> {
  const updatedAt = now();
  await db.run('UPDATE sites SET adaptive_schema = ?, adaptive_schema_updated_at = ? WHERE id = ?', [JSON.stringify(jsonSchema), updatedAt, siteId]);
  return { jsonSchema, updatedAt };
}

export interface ShareLinkRecord {
  id: string;
  siteId: string;
  name: string | null;
  key: string;
  active: boolean;
  createdAt: string;
}

interface ShareLinkRow {
  id: string;
  site_id: string;
  name: string | null;
  share_key: string;
  active: number;
  created_at: string;
}

const toShareLink = (row: ShareLinkRow): ShareLinkRecord => ({
  id: row.id,
  siteId: row.site_id,
  name: row.name,
  key: row.share_key,
  active: row.active === 1,
  createdAt: row.created_at,
});

export async function insertShareLink(db: Queryable, siteId: string, name: string): Promise<ShareLinkRecord> {
  const row: ShareLinkRow = { id: newId(), site_id: siteId, name, share_key: randomBytes(24).toString('base64url'), active: 1, created_at: now() };
  await db.run('INSERT INTO site_share_links (id, site_id, name, share_key, active, created_at) VALUES (?, ?, ?, ?, ?, ?)', [row.id, row.site_id, row.name, row.share_key, row.active, row.created_at]);
  return toShareLink(row);
}

export async function listShareLinks(db: Queryable, siteId: string, request: PageRequest): Promise<Page<ShareLinkRecord>> {
  const page = await paginate<ShareLinkRow>(
    db,
    { select: '*', from: 'site_share_links', where: 'site_id = ?', params: [siteId], sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    { ...request, order: 'asc' },
  );
  return mapPage(page, toShareLink);
}

export async function findShareLink(db: Queryable, siteId: string, shareLinkId: string): Promise<ShareLinkRecord | undefined> {
  const row = await db.get<ShareLinkRow>('SELECT * FROM site_share_links WHERE id = ? AND site_id = ?', [shareLinkId, siteId]);
  return row && toShareLink(row);
}

/** Whether `key` opens the site: it belongs to one of the site's links, and that link is active. */
export async function isActiveShareKey(db: Queryable, siteId: string, key: string): Promise<boolean> {
  const row = await db.get('SELECT 1 FROM site_share_links WHERE site_id = ? AND share_key = ? AND active = 1', [siteId, key]);
  return row !== undefined;
}

export async function updateShareLink(db: Queryable, siteId: string, shareLinkId: string, changes: { name?: string; active?: boolean }): Promise<ShareLinkRecord> {
  if (changes.name !== undefined) await db.run('UPDATE site_share_links SET name = ? WHERE id = ? AND site_id = ?', [changes.name, shareLinkId, siteId]);
  if (changes.active !== undefined) await db.run('UPDATE site_share_links SET active = ? WHERE id = ? AND site_id = ?', [changes.active ? 1 : 0, shareLinkId, siteId]);
  const link = await findShareLink(db, siteId, shareLinkId);
  if (!link) throw notFound(`Share link ${shareLinkId}`);
  return link;
}

export async function deleteShareLink(db: Queryable, siteId: string, shareLinkId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM site_share_links WHERE id = ? AND site_id = ?', [shareLinkId, siteId]);
  return changes > 0;
}

/** What DNS said of a site's custom hostname when last asked, if it still has that hostname. */
export async function findHostnameCheck(db: Queryable, siteId: string, hostname: string): Promise<{ status: string; checkedAt: string } | undefined> {
  const row = await db.get<{ status: string; checked_at: string }>('SELECT status, checked_at FROM custom_hostname_checks WHERE site_id = ? AND hostname = ?', [siteId, hostname]);
  return row && { status: row.status, checkedAt: row.checked_at };
}

export async function saveHostnameCheck(db: Queryable, siteId: string, hostname: string, status: string): Promise<void> {
  await db.run(
    'INSERT INTO custom_hostname_checks (site_id, hostname, status, checked_at) VALUES (?, ?, ?, ?) ON CONFLICT (site_id) DO UPDATE SET hostname = excluded.hostname, status = excluded.status, checked_at = excluded.checked_at',
    [siteId, hostname, status, now()],
  );
}
