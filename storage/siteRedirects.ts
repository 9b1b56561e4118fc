import type { Database, Queryable } from './db.js';
import { conflict, isUniqueViolation } from './errors.js';
import { newId, now } from './ids.js';
import { containsPattern, mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type RedirectDestination = { kind: 'site-section'; siteSectionId: string } | { kind: 'site-space'; siteSpaceId: string } | { kind: 'site-page'; siteSpaceId: string; pageId: string };

export interface SiteRedirectRecord {
  id: string;
  siteId: string;
  /** A path below the site's URL, starting with `/`. */
  source: string;
  destination: RedirectDestination;
  createdAt: string;
}

interface SiteRedirectRow {
  id: string;
  site_id: string;
  source: string;
  destination: string;
  created_at: string;
}

const toRedirect = (row: SiteRedirectRow): SiteRedirectRecord => ({
  id: row.id,
  siteId: row.site_id,
  source: row.source,
  destination: JSON.parse(row.destination) as RedirectDestination,
  createdAt: row.created_at,
});

const taken = (source: string) => conflict(`The site already redirects ${source}`);

export async function insertSiteRedirect(db: Queryable, siteId: string, input: { source: string; destination: RedirectDestination }): Promise<SiteRedirectRecord> {
  const id = newId();
  try {
    await db.run('INSERT INTO site_redirects (id, site_id, source, destination, created_at) VALUES (?, ?, ?, ?, ?)', [id, siteId, input.source, JSON.stringify(input.destination), now()]);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.source);
    throw error;
  }
  return (await findSiteRedirect(db, siteId, id))!;
}

export async function findSiteRedirect(db: Queryable, siteId: string, id: string): Promise<SiteRedirectRecord | undefined> {
  const row = await db.get<SiteRedirectRow>('SELECT * FROM site_redirects WHERE site_id = ? AND id = ?', [siteId, id]);
  return row && toRedirect(row);
}

/**
 * Every redirect of a site by source, through the read cache: a URL lookup checks its path against
 * them, and most paths match none (a miss must not cost a query, nor fill the cache).
 */
export async function siteRedirectsBySource(db: Database, siteId: string): Promise<Map<string, SiteRedirectRecord>> {
  const all = await db.cached(`site-redirects:${siteId}`, ['site_redirects'], async () => {
    const rows = await db.all<SiteRedirectRow>('SELECT * FROM site_redirects WHERE site_id = ?', [siteId]);
    return new Map(rows.map((row) => [row.source, toRedirect(row)]));
  });
  return all ?? new Map();
}

/** Oldest first; `search` matches anywhere in the source path. */
export async function listSiteRedirects(db: Queryable, siteId: string, search: string | undefined, request: PageRequest): Promise<Page<SiteRedirectRecord>> {
  const where = ['site_id = ?', ...(search ? ["source LIKE ? ESCAPE '\\'"] : [])];
  const params: unknown[] = [siteId, ...(search ? [containsPattern(search)] : [])];
  const page = await paginate<SiteRedirectRow>(
    db,
    { select: '*', from: 'site_redirects', where: where.join(' AND '), params, sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    { ...request, order: 'asc' },
  );
  return mapPage(page, toRedirect);
}

export async function updateSiteRedirect(db: Queryable, siteId: string, id: string, changes: { source?: string; destination?: RedirectDestination }): Promise<SiteRedirectRecord | undefined> {
  try {
    if (changes.source !== undefined) await db.run('UPDATE site_redirects SET source = ? WHERE site_id = ? AND id = ?', [changes.source, siteId, id]);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(changes.source!);
    throw error;
  }
  if (changes.destination !== undefined) await db.run('UPDATE site_redirects SET destination = ? WHERE site_id = ? AND id = ?', [JSON.stringify(changes.destination), siteId, id]);
  return findSiteRedirect(db, siteId, id);
}

export async function deleteSiteRedirect(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const found = await findSiteRedirect(db, siteId, id);
  if (found) await db.run('DELETE FROM site_redirects WHERE site_id = ? AND id = ?', [siteId, id]);
  return found !== undefined;
}
