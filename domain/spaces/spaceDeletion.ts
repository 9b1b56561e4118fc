import { findSpace, getSpace, type SpaceRecord } from '../../storage/spaces.js';
import { clearSpaceDeletion, listDeletedSpaces, markSpaceDeleted, purgeDeletedSpaceRows, type PurgeOutcome } from '../../storage/spaceDeletion.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { alreadyThere, missing } from '../common/errors.js';
import { log } from '../common/log.js';

type Deps = Pick<JobDeps, 'db' | 'jobs' | 'retentionMs'>;

/**
 * Into the bin, with its purge job started. If the job can't be started the space comes back
 * out of the bin and the caller gets the job service's 503: a deleted space always has a purge.
 * False when the space was in the bin already (another delete got there first).
 */
export async function deleteSpace(deps: Deps, space: SpaceRecord): Promise<boolean> {
  const deletedAt = new Date().toISOString();
  if (!(await markSpaceDeleted(deps.db, space.id, deletedAt))) return false;
  try {
    await deps.jobs.startSpaceDeletion({ spaceId: space.id, deletedAt, retentionMs: deps.retentionMs });
  } catch (error) {
    await clearSpaceDeletion(deps.db, space.id, deletedAt);
    throw error;
  }
  return true;
}

/**
 * Out of the bin. The database decides: once the space is live its purge job, when it wakes,
 * finds it live and keeps it, so cancelling the job is a courtesy that may fail when Temporal
 * is down. A purge that got there first wins, and the space is gone (404).
 */
export async function restoreSpace(deps: Deps, space: SpaceRecord & { deletedAt: string }): Promise<SpaceRecord> {
  if (Date.parse(space.deletedAt) + deps.retentionMs <= Date.now()) throw missing(`Space ${space.id} not found: it was deleted too long ago to restore`);
  if (!(await clearSpaceDeletion(deps.db, space.id, space.deletedAt))) {
    const now = await findSpace(deps.db, space.id, { includeDeleted: true });
    if (!now) throw missing(`Space ${space.id} not found: it has been purged`);
    if (now.deletedAt) throw alreadyThere(`Space ${space.id} was deleted again while it was being restored; try again`);
    return now; // restored by a request racing this one
  }
  await deps.jobs.cancelSpaceDeletion(space.id, space.deletedAt).catch((error: Error) => {
    log.warn(`space ${space.id} restored; its purge job will find it live and keep it`, { error: error.message });
  });
  return getSpace(deps.db, space.id);
}

/**
 * Starts the purge job of every space in the bin that lacks one: spaces deleted before jobs
 * existed, or by a process that stopped between marking the space and starting its job.
 */
export async function ensureDeletionJobs(deps: Deps): Promise<number> {
  const deleted = await listDeletedSpaces(deps.db);
  for (const space of deleted) {
    await deps.jobs.ensureSpaceDeletion({ spaceId: space.id, deletedAt: space.deletedAt, retentionMs: deps.retentionMs });
  }
  return deleted.length;
}

export interface PurgeDeletedSpaceInput {
  spaceId: string;
  /** The deletion this purge belongs to: a space restored (and perhaps deleted again) since is kept. */
  deletedAt: string;
}

/**
 * Removes a deleted space for good: rows and search index in one transaction, then its
 * repository. Idempotent: a retry after a crash between the two finds the rows gone and
 * removes what is left of the repository.
 */
export async function purgeDeletedSpace(deps: Pick<ContentDeps, 'db' | 'repositories'>, { spaceId, deletedAt }: PurgeDeletedSpaceInput): Promise<PurgeOutcome> {
  const outcome = await purgeDeletedSpaceRows(deps.db, spaceId, deletedAt);
  if (outcome !== 'restored') await deps.repositories.remove(spaceId);
  return outcome;
}
