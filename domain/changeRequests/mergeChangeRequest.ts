import { mergeBranch, type MergeConflict, primaryBranch, readBranch, resolveRevision } from '../../engine/index.js';
import { updateChangeRequest, type ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { assertMergeRules } from './changeRequestMergeRules.js';
import { assertWritable, changeRequestHead } from './changeRequests.js';
import type { ContentDeps } from '../common/deps.js';
import { alreadyThere, spaceLocked } from '../common/errors.js';
import { authorOf, primaryBranchMoved } from '../spaces/index.js';
import { recordAudit, type Actor } from '../audit/index.js';
import { deleteAuditEvent } from '../../storage/auditEvents.js';

export type MergeOutcome =
  { result: 'merge' | 'update'; revision: string; changeRequest: ChangeRequestRecord } | { result: 'conflicts'; revision: string; conflicts: MergeConflict[]; changeRequest: ChangeRequestRecord };

/** The primary branch's last commit the change request holds: its merge base. */
export const mergeBaseOf = (changeRequest: ChangeRequestRecord) => changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;

/**
 * Merges the change request's branch into the primary branch: a merge commit with both parents,
 * and the change request `merged` with `revisionMerged`, as one decision. Under the repository's
 * lock, the status moves from the one read (compare-and-set) before the branch does: a racer that
 * changed the status first (an archive, another merge) makes this merge a 409 with nothing moved,
 * and one that comes after finds the change request merged. On conflicts nothing moves.
 */
export async function mergeChangeRequest(deps: ContentDeps, input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; author: UserRecord; actor: Actor }): Promise<MergeOutcome> {
  const { space, changeRequest } = input;
  assertWritable(changeRequest);
  if (space.editMode === 'locked') throw spaceLocked(space.id);
  const repo = deps.repositories.open(space.id);
  const head = await changeRequestHead(deps, changeRequest);
  const outdated = (await readBranch(repo, primaryBranch)) !== mergeBaseOf(changeRequest);
  await assertMergeRules(deps.db, { space, changeRequest, head, outdated, actorId: input.author.id });
  let updated: ChangeRequestRecord | undefined;
  let events: string[] = [];
  const merged = await mergeBranch({
    repo,
    into: primaryBranch,
    from: head,
    base: mergeBaseOf(changeRequest),
    message: `Merge change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`,
    author: authorOf(input.author),
    beforeLanding: async (commit) => {
      // A push or a write that landed on the change request since its head was read (they take the
      // same lock): merging the head read before would leave that work out, acknowledged and lost.
      if ((await readBranch(repo, changeRequest.branch)) !== head) throw alreadyThere(`Change request #${changeRequest.number} changed while it was being merged: merge it again`);
      // The status and the merge's audit event move together, before the branch (under its lock).
      // Kept only once committed: a transaction that fails leaves nothing to move back.
      [updated, events] = await deps.db.transaction(async (tx) => {
        const merged = await updateChangeRequest(tx, changeRequest.id, { status: 'merged', revisionMerged: commit }, changeRequest.status);
        const recorded = await recordAudit(tx, input.actor, space.organizationId, {
          action: 'change_request.merged',
          target: { type: 'change-request', id: changeRequest.id, label: `#${changeRequest.number}` },
          payload: { space: space.id, number: changeRequest.number, revision: commit },
        });
        return [merged, recorded] as const;
      });
    },
  }).catch(async (error: unknown) => {
    // The status moved but the branch didn't (moved outside the lock): the change request goes
    // back, and the event of a merge that didn't land goes.
    if (updated) {
      await deps.db.transaction(async (tx) => {
        await updateChangeRequest(tx, changeRequest.id, { status: changeRequest.status }, 'merged');
        for (const id of events) await deleteAuditEvent(tx, id);
      });
    }
    throw error;
  });
  if (!merged.merged) return { result: 'conflicts', revision: merged.head, conflicts: merged.conflicts, changeRequest };
  await primaryBranchMoved(deps, space.id);
  return { result: 'merge', revision: merged.commit, changeRequest: updated! };
}

/**
 * Brings the primary branch's new commits into the change request (a merge commit on its branch;
 * `revisionMergedAncestor` moves). `resolve` settles conflicting pages: keep the change request's
 * version or take the primary branch's.
 */
export async function updateChangeRequestFromPrimary(
  deps: ContentDeps,
  input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; author: UserRecord; resolve?: Record<string, 'change-request' | 'primary'> },
): Promise<MergeOutcome> {
  const { space, changeRequest } = input;
  assertWritable(changeRequest);
  if (space.editMode === 'locked') throw spaceLocked(space.id);
  const repo = deps.repositories.open(space.id);
  const primary = await readBranch(repo, primaryBranch);
  const base = mergeBaseOf(changeRequest);
  if (!primary || primary === base) return { result: 'update', revision: await resolveRevision(repo, changeRequest.branch), changeRequest };
  const resolve = new Map(Object.entries(input.resolve ?? {}).map(([pageId, side]) => [pageId, side === 'change-request' ? ('ours' as const) : ('theirs' as const)]));
  let updated: ChangeRequestRecord | undefined;
  const merged = await mergeBranch({
    repo,
    into: changeRequest.branch,
    from: primary,
    base,
    message: `Update change request #${changeRequest.number} from ${primaryBranch}`,
    author: authorOf(input.author),
    resolve,
    // The change request must still be as read (not archived or merged meanwhile) for its branch to move.
    beforeLanding: async () => {
      updated = await updateChangeRequest(deps.db, changeRequest.id, { revisionMergedAncestor: primary }, changeRequest.status);
    },
  }).catch(async (error: unknown) => {
    if (updated) await updateChangeRequest(deps.db, changeRequest.id, { revisionMergedAncestor: base }, changeRequest.status);
    throw error;
  });
  if (!merged.merged) return { result: 'conflicts', revision: merged.head, conflicts: merged.conflicts, changeRequest };
  return { result: 'update', revision: merged.commit, changeRequest: updated! };
}
