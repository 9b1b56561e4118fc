import { placeMissingBranch, placingNewBranch, primaryBranch, readBranch, resolveRevision, RevisionNotFoundError, slugify, type Template } from '../../engine/index.js';
import { addContributor, findChangeRequest, insertChangeRequest, updateChangeRequest, type ChangeRequestRecord, type ChangeRequestStatus } from '../../storage/changeRequests.js';
import { findIssueCluster } from '../../storage/issueClusters.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { applyTemplate } from '../spaces/index.js';
import type { ContentDeps } from '../common/deps.js';
import { alreadyThere, invalidInput, missing } from '../common/errors.js';

/**
 * The branch of a change request: `change-requests/<number>-<subject slug>`, so that a clone's
 * `git branch -r` reads `origin/change-requests/3-fix-the-install-guide`. Named once, at creation:
 * a later subject doesn't rename it.
 */
export function changeRequestBranch(number: number, subject: string): string {
  const slug = slugify(subject).slice(0, 40).replace(/-+$/, '');
  return `change-requests/${number}${slug ? `-${slug}` : ''}`;
}

/** A change request of the space by id or number, or the 404 that names it. */
export async function changeRequestOf(deps: Pick<ContentDeps, 'db'>, space: SpaceRecord, idOrNumber: string): Promise<ChangeRequestRecord> {
  const changeRequest = await findChangeRequest(deps.db, space.id, idOrNumber);
  if (!changeRequest) throw missing(`Change request ${idOrNumber} not found in space ${space.id}`);
  return changeRequest;
}

/** Refuses writes to a change request whose content can no longer change. */
export function assertWritable(changeRequest: ChangeRequestRecord): void {
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
    throw alreadyThere(`Change request ${changeRequest.number} is ${changeRequest.status}: its content can no longer change`);
  }
}

/**
 * A new change request: its row (with the space's next number), then its branch at the primary
 * branch's head, then the template (if any) as the branch's first commit.
 */
export async function createChangeRequest(
  deps: ContentDeps,
  input: { space: SpaceRecord; subject: string; template: Template | null; creator: UserRecord; conversationsIssuesCluster?: string },
): Promise<ChangeRequestRecord> {
  if (input.conversationsIssuesCluster !== undefined) await assertClusterOf(deps.db, input.space.organizationId, input.conversationsIssuesCluster);
  const head = await resolveRevision(deps.repositories.open(input.space.id), primaryBranch);
  const changeRequest = await openChangeRequestAt(deps, { ...input, initial: head, head });
  if (input.template) await applyTemplateToChangeRequest(deps, { space: input.space, changeRequest, template: input.template, author: input.creator });
  return changeRequest;
}

/**
 * A new change request whose branch starts at `head`, a commit of the space descending from
 * `initial` (the primary branch's commit it departs from, its merge base): what a `git push` to
 * `refs/for/main` opens. The branch is made before the row is committed: a process killed between
 * the two leaves a branch that no row names (taken over by the next change request of its name),
 * never a change request without its branch, which every list of the space's change requests
 * would trip on. Both are written holding the repository lock (placingNewBranch says why).
 */
export async function openChangeRequestAt(
  deps: ContentDeps,
  input: { space: SpaceRecord; subject: string; creator: UserRecord; initial: string; head: string; conversationsIssuesCluster?: string },
): Promise<ChangeRequestRecord> {
  return placingNewBranch(deps.repositories.open(input.space.id), (place) =>
    deps.db.transaction(async (tx) => {
      const changeRequest = await insertChangeRequest(tx, {
        spaceId: input.space.id,
        subject: input.subject,
        createdBy: input.creator.id,
        revisionInitial: input.initial,
        conversationsIssuesCluster: input.conversationsIssuesCluster,
        branchOf: (number) => changeRequestBranch(number, input.subject),
      });
      await place(changeRequest.branch, input.head);
      return changeRequest;
    }),
  );
}

/** A built-in template's content replacing the change request's, as one commit on its branch. */
export async function applyTemplateToChangeRequest(
  deps: ContentDeps,
  input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; template: Template; author: UserRecord },
): Promise<{ commit: string }> {
  assertWritable(input.changeRequest);
  const written = await applyTemplate(deps, { space: input.space, template: input.template, author: input.author, branch: input.changeRequest.branch });
  await addContributor(deps.db, input.changeRequest.id, input.author.id);
  return written;
}

/** applyTemplateToChangeRequest for the change request the caller named (id or number). */
export async function applyTemplateToChangeRequestById(deps: ContentDeps, input: { space: SpaceRecord; changeRequestId: string; template: Template; author: UserRecord }): Promise<{ commit: string }> {
  const changeRequest = await changeRequestOf(deps, input.space, input.changeRequestId);
  return applyTemplateToChangeRequest(deps, { ...input, changeRequest });
}

/** A change request can point only at a cluster of its own organization. */
async function assertClusterOf(db: ContentDeps['db'], organizationId: string, clusterId: string): Promise<void> {
  if (!(await findIssueCluster(db, organizationId, clusterId))) {
    throw invalidInput(`"conversationsIssuesCluster" ${clusterId} is not a conversations issues cluster of organization ${organizationId}`);
  }
}

/** The statuses a caller may set, from each status: nothing leaves `merged`, which only a merge sets. */
const transitions: Record<ChangeRequestStatus, readonly ChangeRequestStatus[]> = {
  draft: ['draft', 'open', 'archived'],
  open: ['draft', 'open', 'archived'],
  archived: ['archived', 'open', 'draft'],
  merged: [],
};

/** Subject, description and status, the status only along the transitions above. */
export async function editChangeRequest(
  deps: Pick<ContentDeps, 'db'>,
  changeRequest: ChangeRequestRecord,
  changes: { subject?: string; description?: unknown; status?: ChangeRequestStatus; conversationsIssuesCluster?: string | null },
  organizationId: string,
): Promise<ChangeRequestRecord> {
  if (typeof changes.conversationsIssuesCluster === 'string') await assertClusterOf(deps.db, organizationId, changes.conversationsIssuesCluster);
  if (changeRequest.status === 'merged') throw alreadyThere(`Change request ${changeRequest.number} is merged: it can no longer change`);
  if (changes.status !== undefined && !transitions[changeRequest.status].includes(changes.status)) {
    throw invalidInput(`A ${changeRequest.status} change request can't become ${changes.status}`);
  }
  // A Document sent without its `data` reads back with an empty one: the shape the API promises.
  const description = changes.description && typeof changes.description === 'object' ? { data: {}, ...changes.description } : changes.description;
  return updateChangeRequest(deps.db, changeRequest.id, { ...changes, ...(changes.description !== undefined ? { description } : {}) }, changeRequest.status);
}

export interface ChangeRequestState {
  /** The branch's head. */
  revision: string;
  /** The primary branch has moved past the last commit of it the branch holds. */
  outdated: boolean;
}

/** What the change request's row doesn't hold: read from its branch and the primary branch. */
export async function changeRequestState(deps: Pick<ContentDeps, 'repositories'>, changeRequest: ChangeRequestRecord): Promise<ChangeRequestState> {
  const [revision, primaryHead] = await Promise.all([changeRequestHead(deps, changeRequest), readBranch(deps.repositories.open(changeRequest.spaceId), primaryBranch)]);
  const base = changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;
  return { revision, outdated: changeRequest.status !== 'merged' && primaryHead !== base };
}

/**
 * The head of a change request's branch. A row that a process killed at the wrong moment left
 * without its branch (before the branch was made inside the row's transaction) gets its branch
 * again, at its base: no commit can have reached a branch that was never made. Otherwise that one
 * row made every list of its space's change requests fail.
 */
export async function changeRequestHead(deps: Pick<ContentDeps, 'repositories'>, changeRequest: ChangeRequestRecord): Promise<string> {
  const repo = deps.repositories.open(changeRequest.spaceId);
  try {
    return await resolveRevision(repo, changeRequest.branch);
  } catch (error) {
    if (!(error instanceof RevisionNotFoundError)) throw error;
    return placeMissingBranch(repo, changeRequest.branch, changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial);
  }
}
