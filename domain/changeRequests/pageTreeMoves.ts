import type { RevisionPage } from '../../engine/index.js';
import type { UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { type EditedBranch, editedBranchName, readEditedRevision, updateEditedContent } from './editedBranch.js';

/**
 * A page moved in its branch's tree, a step at a time as a keyboard moves it: up or
 * down among its siblings, in (under the page above it, last), out (after its parent); or to a
 * place by name (a drag: under `into`, at `at`). The API's `update_page` with `into` and `at`,
 * under its rules (never under itself, a free slug where it lands).
 */
export type TreeMove = 'up' | 'down' | 'in' | 'out' | { into: string | null; at: number };

export async function movePageInTree(deps: ContentDeps, input: { edited: EditedBranch; pageId: string; move: TreeMove; author: UserRecord }) {
  const revision = await readEditedRevision(deps, input.edited);
  const place = locate(revision.pages, input.pageId, null);
  if (!place) throw missing(`Page ${input.pageId} not found in ${editedBranchName(input.edited)}`);
  const target = destination(place, input.move);
  if (!target) throw invalidInput(`Page ${input.pageId} can't move ${String(input.move)} from where it is`);
  return updateEditedContent(deps, { edited: input.edited, operations: [{ operation: 'update_page', page: input.pageId, ...target }], author: input.author });
}

/** A page renamed (the API's `update_page` with `title`). */
export async function renamePageInTree(deps: ContentDeps, input: { edited: EditedBranch; pageId: string; title: string; author: UserRecord }) {
  const title = input.title.trim();
  if (!title || title.length > 256) throw invalidInput('A page’s title has 1 to 256 characters');
  return updateEditedContent(deps, { edited: input.edited, operations: [{ operation: 'update_page', page: input.pageId, title }], author: input.author });
}

interface Place {
  siblings: RevisionPage[];
  index: number;
  parentId: string | null;
  /** The parent's own place, for a move out. */
  parent?: Place;
}

function locate(pages: RevisionPage[], id: string, parentId: string | null, parent?: Place): Place | undefined {
  for (const [index, page] of pages.entries()) {
    const here: Place = { siblings: pages, index, parentId, ...(parent ? { parent } : {}) };
    if (page.id === id) return here;
    const inside = locate(page.pages, id, page.id, here);
    if (inside) return inside;
  }
  return undefined;
}

/** Where a move lands, as `update_page`'s `into` and `at` (an index once the page has left its place). */
function destination(place: Place, move: TreeMove): { into: string | null; at: number } | undefined {
  if (typeof move === 'object') return move;
  switch (move) {
    case 'up':
      return place.index > 0 ? { into: place.parentId, at: place.index - 1 } : undefined;
    case 'down':
      return place.index < place.siblings.length - 1 ? { into: place.parentId, at: place.index + 1 } : undefined;
    case 'in': {
      const above = place.siblings[place.index - 1];
      return above && above.kind !== 'link' ? { into: above.id, at: above.pages.length } : undefined;
    }
    case 'out':
      return place.parent ? { into: place.parent.parentId, at: place.parent.index + 1 } : undefined;
  }
}
