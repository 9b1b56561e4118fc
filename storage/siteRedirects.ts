import type { Database, Queryable } from './db.js';
import { conflict, isUniqueViolation } from './errors.js';
import { newId, now } from './ids.js';
import { containsPattern, mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type RedirectDestination =
  { kind: 'site-section'; siteSectionId: string } | { kind: 'site-space'; siteSpaceId: string } | { kind: 'site-page'; siteSpaceId: string; pageId: string } | { kind: 'external'; url: string };

/** How a redirect answers (0.202.0): 308/307 rather than 302, and a wildcard's match carried on. */
export interface RedirectOptions {
  captureWildcard: boolean;
  permanent: boolean;
}

export interface SiteRedirectRecord extends RedirectOptions {
  id: string;
  siteId: string;
  /** A path below the site's URL, starting with `/`; ending in `*`, every path it starts. */
  source: string;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
}

interface SiteRedirectRow {
  id: string;
  site_id: string;
  source: string;
  destination: string;
  created_at: string;
  capture_wildcard: number | null;
  permanent: number | null;
  updated_at: string | null;
}

const columns = 'r.id, r.site_id, r.source, r.destination, r.created_at, o.capture_wildcard, o.permanent, o.updated_at';
const from = 'site_redirects r LEFT JOIN site_redirect_rules o ON o.redirect_id = r.id';

const toRedirect = (row: SiteRedirectRow): SiteRedirectRecord => ({
  id: row.id,
  siteId: row.site_id,
  source: row.source,
  destination: JSON.parse(row.destination) as RedirectDestination,
  createdAt: row.created_at,
  captureWildcard: Number(row.capture_wildcard ?? 0) === 1,
  permanent: Number(row.permanent ?? 0) === 1,
  ...(row.updated_at ? { updatedAt: row.updated_at } : {}),
});

const taken = (source: string) => conflict(`The site already redirects ${source}`);

async function putOptions(db: Queryable, id: string, options: RedirectOptions, updatedAt: string | null): Promise<void> {
  await db.run(
    `INSERT INTO site_redirect_rules (redirect_id, capture_wildcard, permanent, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (redirect_id) DO UPDATE SET capture_wildcard = excluded.capture_wildcard, permanent = excluded.permanent, updated_at = excluded.updated_at`,
    [id, options.captureWildcard ? 1 : 0, options.permanent ? 1 : 0, updatedAt],
  );
}

export async function insertSiteRedirect(db: Queryable, siteId: string, input: { source: string; destination: RedirectDestination } & Partial<RedirectOptions>): Promise<SiteRedirectRecord> {
  const id = newId();
  try {
    await db.run('INSERT INTO site_redirects (id, site_id, source, destination, created_at) VALUES (?, ?, ?, ?, ?)', [id, siteId, input.source, JSON.stringify(input.destination), now()]);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.source);
    throw error;
  }
  await putOptions(db, id, { captureWildcard: input.captureWildcard ?? false, permanent: input.permanent ?? false }, null);
  return (await findSiteRedirect(db, siteId, id))!;
}

export async function findSiteRedirect(db: Queryable, siteId: string, id: string): Promise<SiteRedirectRecord | undefined> {
  const row = await db.get<SiteRedirectRow>(`SELECT ${columns} FROM ${from} WHERE r.site_id = ? AND r.id = ?`, [siteId, id]);
  return row && toRedirect(row);
}

export async function findSiteRedirectBySource(db: Queryable, siteId: string, source: string): Promise<SiteRedirectRecord | undefined> {
  const row = await db.get<SiteRedirectRow>(`SELECT ${columns} FROM ${from} WHERE r.site_id = ? AND r.source = ?`, [siteId, source]);
  return row && toRedirect(row);
}

/**
 * Every redirect of a site by source, through the read cache: a URL lookup checks its path against
 * them, and most paths match none (a miss must not cost a query, nor fill the cache).
 */
export async function siteRedirectsBySource(db: Database, siteId: string): Promise<Map<string, SiteRedirectRecord>> {
  const all = await db.cached(`site-redirects:${siteId}`, ['site_redirects', 'site_redirect_rules'], async () => {
    const rows = await db.all<SiteRedirectRow>(`SELECT ${columns} FROM ${from} WHERE r.site_id = ?`, [siteId]);
    return new Map(rows.map((row) => [row.source, toRedirect(row)]));
  });
  return all ?? new Map();
}

/** Oldest first; `search` matches anywhere in the source path. */
export type RedirectOrder = 'createdAt' | 'updatedAt' | 'source';

/** Upstream's orders: the newest created, or the newest changed (a redirect never changed by its creation), first; or by source, A to Z. */
const orders = {
  createdAt: { sort: ['r.created_at', 'r.id'], key: (row: SiteRedirectRow): [string, string] => [row.created_at, row.id], order: 'desc' },
  updatedAt: { sort: ['COALESCE(o.updated_at, r.created_at)', 'r.id'], key: (row: SiteRedirectRow): [string, string] => [row.updated_at ?? row.created_at, row.id], order: 'desc' },
  source: { sort: ['r.source', 'r.id'], key: (row: SiteRedirectRow): [string, string] => [row.source, row.id], order: 'asc' },
} as const;

export async function listSiteRedirects(db: Queryable, siteId: string, filter: { search?: string; orderBy?: RedirectOrder }, request: PageRequest): Promise<Page<SiteRedirectRecord>> {
  const { search } = filter;
  const where = ['r.site_id = ?', ...(search ? ["r.source LIKE ? ESCAPE '\\'"] : [])];
  const params: unknown[] = [siteId, ...(search ? [containsPattern(search)] : [])];
  const order = orders[filter.orderBy ?? 'createdAt'];
  const page = await paginate<SiteRedirectRow>(
    db,
    { select: columns, from, where: where.join(' AND '), params, sort: [order.sort[0], order.sort[1]], key: order.key },
    { ...request, order: order.order },
  );
  return mapPage(page, toRedirect);
}

export async function updateSiteRedirect(
  db: Queryable,
  siteId: string,
  id: string,
  changes: { source?: string; destination?: RedirectDestination } & Partial<RedirectOptions>,
): Promise<SiteRedirectRecord | undefined> {
  const current = await findSiteRedirect(db, siteId, id);
  if (!current) return undefined;
  try {
    if (changes.source !== undefined) await db.run('UPDATE site_redirects SET source = ? WHERE site_id = ? AND id = ?', [changes.source, siteId, id]);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(changes.source!);
    throw error;
  }
  if (changes.destination !== undefined) await db.run('UPDATE site_redirects SET destination = ? WHERE site_id = ? AND id = ?', [JSON.stringify(changes.destination), siteId, id]);
  await putOptions(db, id, { captureWildcard: changes.captureWildcard ?? current.captureWildcard, permanent: changes.permanent ?? current.permanent }, now());
  return findSiteRedirect(db, siteId, id);
}

export async function deleteSiteRedirect(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const found = await findSiteRedirect(db, siteId, id);
  if (found) await db.run('DELETE FROM site_redirects WHERE site_id = ? AND id = ?', [siteId, id]);
  return found !== undefined;
}
