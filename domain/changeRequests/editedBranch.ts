import { primaryBranch, resolveRevision, type Revision } from '../../engine/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { notAllowed, spaceLocked } from '../common/errors.js';
import { readSpaceRevision } from '../spaces/index.js';
import { type ContentOperation, type ContentUpdate, updateChangeRequestContent, updateLiveContent } from './changeRequestContent.js';
import { ruleSkippedByDirectChange } from './changeRequestMergeRules.js';
import { assertWritable, changeRequestHead } from './changeRequests.js';

/**
 * Where the app's editors write: a change request's branch, or, in a space whose edit mode is
 * `live` ("users can directly edit the space"), the space's primary branch itself (`changeRequest`
 * null). Pages, saves, uploads, tree moves and shared rooms work the same on either.
 */
export interface EditedBranch {
  space: SpaceRecord;
  changeRequest: ChangeRequestRecord | null;
}

/** How messages name it: "change request #3", or "space abc". */
export const editedBranchName = (edited: EditedBranch) => (edited.changeRequest ? `change request #${edited.changeRequest.number}` : `space ${edited.space.id}`);

/** Refuses what can't be edited: a merged or archived change request, a locked space's content. */
export function assertEditable(edited: EditedBranch): void {
  if (edited.changeRequest) assertWritable(edited.changeRequest);
  else if (edited.space.editMode !== 'live') throw spaceLocked(edited.space.id);
}

/**
 * Why `actor` may not edit the space's own content live, or null when they may: a locked space,
 * or a merge rule the change would skip (every rule is about a change request's reviews), unless
 * the rules let them bypass it: as a `git push` to the primary branch is judged.
 */
export async function liveEditRefusal(deps: Pick<ContentDeps, 'db'>, space: SpaceRecord, actor: UserRecord): Promise<string | null> {
  if (space.editMode !== 'live') return `Space ${space.id} is locked`;
  const rule = await ruleSkippedByDirectChange(deps.db, space, actor.id);
  return rule ? `The merge rule ${rule} applies to space ${space.id}: its pages are edited in a change request` : null;
}

/** The space's own content, to edit live: refused (423 locked, 403 a merge rule) as liveEditRefusal says. */
export async function liveEditedBranch(deps: Pick<ContentDeps, 'db'>, space: SpaceRecord, actor: UserRecord): Promise<EditedBranch> {
  const edited = { space, changeRequest: null };
  assertEditable(edited);
  const refusal = await liveEditRefusal(deps, space, actor);
  if (refusal) throw notAllowed(refusal);
  return edited;
}

export async function editedBranchHead(deps: Pick<ContentDeps, 'repositories'>, edited: EditedBranch): Promise<string> {
  if (edited.changeRequest) return changeRequestHead(deps, edited.changeRequest);
  return resolveRevision(deps.repositories.open(edited.space.id), primaryBranch);
}

/** The branch's head, or another commit of its space (`ref`): its pages and files (the editors need no file sizes). */
export async function readEditedRevision(deps: Pick<ContentDeps, 'repositories'>, edited: EditedBranch, ref?: string): Promise<Revision> {
  return readSpaceRevision(deps, edited.space.id, ref ?? (await editedBranchHead(deps, edited)));
}

/** The API's content batch on the branch, as one commit (see updateChangeRequestContent). */
export function updateEditedContent(deps: ContentDeps, input: { edited: EditedBranch; operations: ContentOperation[]; author: UserRecord; expectHead?: string }): Promise<ContentUpdate> {
  const { edited, ...batch } = input;
  if (edited.changeRequest) return updateChangeRequestContent(deps, { ...batch, space: edited.space, changeRequest: edited.changeRequest });
  return updateLiveContent(deps, { ...batch, space: edited.space });
}
