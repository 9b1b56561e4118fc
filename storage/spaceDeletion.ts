import type { Database, Queryable, Transaction } from './db.js';
import { now } from './ids.js';
import { removeSpaceIndex } from './search.js';
import { removeSiteSpacesOfSpace } from './siteStructure.js';

/**
 * Moves a live space into the bin at `deletedAt`. False when it was already there (or is gone):
 * of two deletes racing, exactly one marks the space, and only that one starts its purge.
 */
export async function markSpaceDeleted(db: Queryable, spaceId: string, deletedAt: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE spaces SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL', [deletedAt, now(), spaceId]);
  return changes > 0;
}

/** Takes the space out of the bin, if it is still in it from the deletion at `deletedAt`. */
export async function clearSpaceDeletion(db: Queryable, spaceId: string, deletedAt: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE spaces SET deleted_at = NULL, updated_at = ? WHERE id = ? AND deleted_at = ?', [now(), spaceId, deletedAt]);
  return changes > 0;
}

/** Every space in the bin, for making sure each has its purge job. */
export async function listDeletedSpaces(db: Queryable): Promise<Array<{ id: string; deletedAt: string }>> {
  return db.all<{ id: string; deletedAt: string }>('SELECT id, deleted_at AS deletedAt FROM spaces WHERE deleted_at IS NOT NULL ORDER BY deleted_at');
}

export type PurgeOutcome = 'purged' | 'already-purged' | 'restored';

/**
 * Removes the space's rows and search index, and records the purge, in one transaction, but only
 * if the space is still in the bin from the deletion at `deletedAt`: a restore (or a restore and
 * a newer delete) that got there first wins, whichever order the two arrive in.
 */
export function purgeDeletedSpaceRows(
  db: Database,
  spaceId: string,
  deletedAt: string,
  /** Also written in the purge's transaction (its audit event). */
  alongside?: (tx: Transaction, space: { organizationId: string; title: string }) => Promise<unknown>,
): Promise<PurgeOutcome> {
  return db.transaction(async (tx) => {
    const space = await tx.get<{ organization_id: string; title: string; deleted_at: string | null }>('SELECT organization_id, title, deleted_at FROM spaces WHERE id = ?', [spaceId]);
    if (!space) return 'already-purged';
    if (space.deleted_at !== deletedAt) return 'restored';
    await removeSpaceIndex(tx, spaceId);
    // Its site spaces go too, each default handed to a neighbour.
    await removeSiteSpacesOfSpace(tx, spaceId);
    await tx.run('DELETE FROM spaces WHERE id = ?', [spaceId]);
    await tx.run('INSERT INTO space_purges (space_id, organization_id, title, deleted_at, purged_at) VALUES (?, ?, ?, ?, ?)', [spaceId, space.organization_id, space.title, deletedAt, now()]);
    await alongside?.(tx, { organizationId: space.organization_id, title: space.title });
    return 'purged';
  });
}

export async function findSpacePurge(db: Queryable, spaceId: string): Promise<{ spaceId: string; deletedAt: string; purgedAt: string } | undefined> {
  return db.get('SELECT space_id AS spaceId, deleted_at AS deletedAt, purged_at AS purgedAt FROM space_purges WHERE space_id = ?', [spaceId]);
}
