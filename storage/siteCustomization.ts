import type { Database, Queryable } from './db.js';
import { now } from './ids.js';

/** Upstream's SiteCustomizationSettings (or a part of it), as JSON: api/schemas checks its shape. */
export type CustomizationJson = Record<string, unknown>;

export interface SiteCustomizations {
  /** The site's own settings, undefined until someone sets them. */
  site: CustomizationJson | undefined;
  /** The fields each site space overrides, by site space id. */
  overrides: Map<string, CustomizationJson>;
}

/** Through the read cache: every published profile and site token read presents them. */
export async function loadSiteCustomizations(db: Database, siteId: string): Promise<SiteCustomizations> {
  const loaded = await db.cached(`site-customizations:${siteId}`, ['site_customizations', 'site_space_customizations'], async () => {
    const [site, overrides] = await Promise.all([
      db.get<{ settings: string }>('SELECT settings FROM site_customizations WHERE site_id = ?', [siteId]),
      db.all<{ site_space_id: string; overrides: string }>('SELECT site_space_id, overrides FROM site_space_customizations WHERE site_id = ?', [siteId]),
    ]);
    return {
      site: site ? (JSON.parse(site.settings) as CustomizationJson) : undefined,
      overrides: new Map(overrides.map((row) => [row.site_space_id, JSON.parse(row.overrides) as CustomizationJson])),
    };
  });
  return loaded!;
}

/** Read in the transaction that merges a site space's override body into them. */
export async function findSiteSpaceOverrides(db: Queryable, siteSpaceId: string): Promise<CustomizationJson | undefined> {
  const row = await db.get<{ overrides: string }>('SELECT overrides FROM site_space_customizations WHERE site_space_id = ?', [siteSpaceId]);
  return row ? (JSON.parse(row.overrides) as CustomizationJson) : undefined;
}

export async function saveSiteCustomization(db: Queryable, siteId: string, settings: CustomizationJson): Promise<void> {
  await db.run('INSERT INTO site_customizations (site_id, settings, updated_at) VALUES (?, ?, ?) ON CONFLICT (site_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at', [
    siteId,
    JSON.stringify(settings),
    now(),
  ]);
}

export async function saveSiteSpaceOverrides(db: Queryable, siteId: string, siteSpaceId: string, overrides: CustomizationJson): Promise<void> {
  await db.run(
    'INSERT INTO site_space_customizations (site_space_id, site_id, overrides, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (site_space_id) DO UPDATE SET overrides = excluded.overrides, updated_at = excluded.updated_at',
    [siteSpaceId, siteId, JSON.stringify(overrides), now()],
  );
}

/** Whether there were overrides to delete. */
export async function deleteSiteSpaceOverrides(db: Queryable, siteId: string, siteSpaceId: string): Promise<boolean> {
  const found = await db.get<{ site_space_id: string }>('SELECT site_space_id FROM site_space_customizations WHERE site_id = ? AND site_space_id = ?', [siteId, siteSpaceId]);
  if (found) await db.run('DELETE FROM site_space_customizations WHERE site_space_id = ?', [siteSpaceId]);
  return found !== undefined;
}
