import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from './db.js';
import { now } from './ids.js';

export type VisitorAuthBackend = 'custom' | 'integration';

export interface SitePublishingAuthRecord {
  siteId: string;
  backend: VisitorAuthBackend;
  /** The HS256 secret visitor JWTs are signed with, as the site's owners were given it. */
  privateKey: string;
  fallbackUrl: string | null;
}

interface SitePublishingAuthRow {
  site_id: string;
  backend: VisitorAuthBackend;
  private_key: string;
  fallback_url: string | null;
}

const toAuth = (row: SitePublishingAuthRow): SitePublishingAuthRecord => ({ siteId: row.site_id, backend: row.backend, privateKey: row.private_key, fallbackUrl: row.fallback_url });

const newPrivateKey = () => randomBytes(32).toString('base64url');

/** A site's publishing auth, made (with a new key, the custom backend, no fallback URL) the first time it is asked for. */
export async function ensureSitePublishingAuth(db: Database, siteId: string): Promise<SitePublishingAuthRecord> {
  const found = await findSitePublishingAuth(db, siteId);
  if (found) return found;
  await db.run('INSERT INTO site_publishing_auth (site_id, backend, private_key, fallback_url, updated_at) VALUES (?, ?, ?, NULL, ?) ON CONFLICT (site_id) DO NOTHING', [
    siteId,
    'custom',
    newPrivateKey(),
    now(),
  ]);
  return (await findSitePublishingAuth(db, siteId))!;
}

/** Through the read cache: every URL lookup and every request of a visitor-auth site's tokens reads it. */
export async function findSitePublishingAuth(db: Database, siteId: string): Promise<SitePublishingAuthRecord | undefined> {
  return db.cached(`site-publishing-auth:${siteId}`, ['site_publishing_auth'], async () => {
    const row = await db.get<SitePublishingAuthRow>('SELECT site_id, backend, private_key, fallback_url FROM site_publishing_auth WHERE site_id = ?', [siteId]);
    return row && toAuth(row);
  });
}

/** `fallbackUrl: undefined` leaves it as it is; null unsets it. */
export async function updateSitePublishingAuth(db: Queryable, siteId: string, changes: { backend: VisitorAuthBackend; fallbackUrl?: string | null }): Promise<void> {
  const sets = ['backend = ?', 'updated_at = ?', ...(changes.fallbackUrl !== undefined ? ['fallback_url = ?'] : [])];
  const params = [changes.backend, now(), ...(changes.fallbackUrl !== undefined ? [changes.fallbackUrl] : []), siteId];
  await db.run(`UPDATE site_publishing_auth SET ${sets.join(', ')} WHERE site_id = ?`, params);
}

/** A new key: visitor JWTs signed with the old one, and the site tokens minted from them, stop working. */
export async function regenerateSitePublishingKey(db: Queryable, siteId: string): Promise<void> {
  await db.run('UPDATE site_publishing_auth SET private_key = ?, updated_at = ? WHERE site_id = ?', [newPrivateKey(), now(), siteId]);
}
