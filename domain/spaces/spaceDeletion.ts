import { findSpace, getSpace, type SpaceRecord } from '../../storage/spaces.js';
import { clearSpaceDeletion, listDeletedSpaces, markSpaceDeleted, purgeDeletedSpaceRows, type PurgeOutcome } from '../../storage/spaceDeletion.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { alreadyThere, missing } from '../common/errors.js';
import { log } from '../common/log.js';
import { recordAudit, systemActor, type Actor } from '../audit/index.js';
import { deleteAuditEvent } from '../../storage/auditEvents.js';

type Deps = Pick<JobDeps, 'db' | 'jobs' | 'retentionMs'>;

/**
 * Into the bin, with its purge job started. If the job can't be started the space comes back
 * out of the bin and the caller gets the job service's 503: a deleted space always has a purge.
 * False when the space was in the bin already (another delete got there first).
 */
export async function deleteSpace(deps: Deps, actor: Actor, space: SpaceRecord): Promise<boolean> {
  const deletedAt = new Date().toISOString();
  const events = await deps.db.transaction(async (tx) =>
    (await markSpaceDeleted(tx, space.id, deletedAt)) ? recordAudit(tx, actor, space.organizationId, { action: 'space.deleted', target: spaceTarget(space) }) : undefined,
  );
  if (!events) return false;
  try {
    await deps.jobs.startSpaceDeletion({ spaceId: space.id, deletedAt, retentionMs: deps.retentionMs });
  } catch (error) {
    // Undone whole: the space back out of the bin, and no event of a deletion that didn't happen.
    await deps.db.transaction(async (tx) => {
      await clearSpaceDeletion(tx, space.id, deletedAt);
      for (const id of events) await deleteAuditEvent(tx, id);
    });
    throw error;
  }
  return true;
}

const spaceTarget = (space: SpaceRecord) => ({ type: 'space', id: space.id, label: space.title });

/**
 * Out of the bin. The database decides: once the space is live its purge job, when it wakes,
 * finds it live and keeps it, so cancelling the job is a courtesy that may fail when Temporal
 * is down. A purge that got there first wins, and the space is gone (404).
 */
export async function restoreSpace(deps: Deps, actor: Actor, space: SpaceRecord & { deletedAt: string }): Promise<SpaceRecord> {
  if (Date.parse(space.deletedAt) + deps.retentionMs <= Date.now()) throw missing(`Space ${space.id} not found: it was deleted too long ago to restore`);
  const restored = await deps.db.transaction(async (tx) => {
    if (!(await clearSpaceDeletion(tx, space.id, space.deletedAt))) return false;
    await recordAudit(tx, actor, space.organizationId, { action: 'space.restored', target: spaceTarget(space) });
    return true;
  });
  if (!restored) {
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
  const outcome = await purgeDeletedSpaceRows(deps.db, spaceId, deletedAt, (tx, space) =>
    recordAudit(tx, systemActor('workflow', 'space deletion job'), space.organizationId, {
      action: 'space.purged',
      target: { type: 'space', id: spaceId, label: space.title },
      payload: { deletedAt },
    }),
  );
  if (outcome !== 'restored') await deps.repositories.remove(spaceId);
  return outcome;
}
