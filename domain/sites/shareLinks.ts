import type { Database } from '../../storage/db.js';
import { deleteShareLink, insertShareLink, updateShareLink, type ShareLinkRecord } from '../../storage/sites.js';

/** A new share link of a share-link site: its key opens the site to whoever has the link. */
export function createShareLink(db: Database, siteId: string, name: string): Promise<ShareLinkRecord> {
  return insertShareLink(db, siteId, name);
}

/** Renames a share link, or turns it on or off. */
export function changeShareLink(db: Database, siteId: string, shareLinkId: string, changes: { name?: string; active?: boolean }): Promise<ShareLinkRecord> {
  return updateShareLink(db, siteId, shareLinkId, changes);
}

/** False when there was no such link. */
export function removeShareLink(db: Database, siteId: string, shareLinkId: string): Promise<boolean> {
  return deleteShareLink(db, siteId, shareLinkId);
}
