import { type Author, commitChanges, primaryBranch, resolveRevision, type Template, templateChanges } from '../../engine/index.js';
import { findCollection } from '../../storage/collections.js';
import type { Database, Queryable } from '../../storage/db.js';
import type { ContentDeps } from '../common/deps.js';
import { newId } from '../../storage/ids.js';
import { copySpaceIndex } from '../../storage/search.js';
import { findSpace, insertSpace, updateSpace, type NewSpace, type SpaceChanges, type SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { invalidInput } from '../common/errors.js';
import { primaryBranchMoved } from './primaryHead.js';
import { recordAudit, type Actor } from '../audit/index.js';

export const authorOf = (user: UserRecord): Author => ({ name: user.displayName, email: user.email });

/** The commit a space's primary branch points at: its current revision. */
export async function spaceRevision(deps: Pick<ContentDeps, 'repositories'>, spaceId: string): Promise<string> {
  return resolveRevision(deps.repositories.open(spaceId), primaryBranch);
}

export async function assertCollectionIn(db: Queryable, organizationId: string, collectionId: string | null | undefined, field: string) {
  if (!collectionId) return;
  const collection = await findCollection(db, collectionId);
  if (!collection || collection.organizationId !== organizationId) throw invalidInput(`"${field}" ${collectionId} is not a collection of the organization`);
}

/**
 * A new space: its repository with a first commit (the template's pages, or no page at all),
 * then its row. If the row can't be written the repository is removed again.
 */
export async function createSpace(deps: ContentDeps, input: Omit<NewSpace, 'id'> & { template: Template | null; creator: UserRecord }): Promise<SpaceRecord> {
  await assertCollectionIn(deps.db, input.organizationId, input.collectionId, 'parent');
  const id = newId();
  const repo = await deps.repositories.create(id);
  try {
    await commitChanges({
      repo,
      branch: primaryBranch,
      base: null,
      changes: input.template ? templateChanges(input.template) : [],
      message: input.template ? `Create space from the ${input.template.title} template` : 'Create empty space',
      author: authorOf(input.creator),
    });
    const space = await deps.db.transaction((tx) => insertSpace(tx, { ...input, id, storageId: deps.repositories.storage }));
    await primaryBranchMoved(deps, id);
    return space;
  } catch (error) {
    await deps.repositories.remove(id).catch(() => undefined);
    throw error;
  }
}

/**
 * A copy with the same history of its content, placed after the original. The change requests
 * stay with the original: the copy has its primary branch only, and no change request.
 */
export async function duplicateSpace(deps: ContentDeps, space: SpaceRecord, creator: UserRecord): Promise<SpaceRecord> {
  const id = newId();
  try {
    await deps.repositories.copy(space.id, id, { branches: [primaryBranch] });
    const copy = await deps.db.transaction(async (tx) => {
      const inserted = await insertSpace(tx, {
        id,
        storageId: deps.repositories.storage,
        organizationId: space.organizationId,
        collectionId: space.collectionId,
        title: `${space.title} (copy)`.slice(0, 50),
        emoji: space.emoji,
        editMode: space.editMode,
        visibility: space.visibility,
        defaultLevel: space.defaultLevel,
        mergeRules: space.mergeRules,
        language: space.language,
        createdBy: creator.id,
      });
      // Same history, same index: copied as it is, then brought to the copy's head if it lags.
      await copySpaceIndex(tx, space.id, id);
      return inserted;
    });
    await primaryBranchMoved(deps, id);
    return copy;
  } catch (error) {
    await deps.repositories.remove(id).catch(() => undefined);
    throw error;
  }
}

/**
 * A space's title, emoji or settings changed: the route's policy decides who may change which. A
 * new default level changes who reaches the space, and is audited with it.
 */
export function changeSpace(db: Database, actor: Actor, space: SpaceRecord, changes: SpaceChanges): Promise<SpaceRecord> {
  return db.transaction(async (tx) => {
    const before = (await findSpace(tx, space.id)) ?? space;
    const updated = await updateSpace(tx, space.id, changes);
    if (changes.defaultLevel !== undefined && changes.defaultLevel !== before.defaultLevel) {
      await recordAudit(tx, actor, space.organizationId, {
        action: 'space.access_changed',
        target: { type: 'space', id: space.id, label: updated.title },
        payload: { from: before.defaultLevel, to: changes.defaultLevel },
      });
    }
    return updated;
  });
}
