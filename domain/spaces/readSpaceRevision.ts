import { fileSizes, firstParentHistory, primaryBranch, readRevision, resolveRevision, type HistoryEntry, type Revision } from '../../engine/index.js';
import type { ContentDeps } from '../common/deps.js';

/**
 * A space's revision, to answer a request with: the commit `ref` names (a commit id of the space,
 * or a branch), or its primary branch's head. Throws the engine's RevisionNotFoundError for
 * anything else.
 */
export async function readSpaceRevision(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, ref: string = primaryBranch): Promise<Revision> {
  const repo = deps.repositories.open(spaceId);
  return readRevision(repo, await resolveRevision(repo, ref, { sameTurn: true }));
}

/** A revision with the sizes of its files (by blob id), everything a presentation of it shows. */
export interface RevisionWithSizes {
  revision: Revision;
  sizes: Map<string, number>;
}

export async function readRevisionWithSizes(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, ref?: string): Promise<RevisionWithSizes> {
  const revision = await readSpaceRevision(deps, spaceId, ref);
  return { revision, sizes: await fileSizes(deps.repositories.open(spaceId), revision) };
}

/** The revision before this one (its first parent), or an empty revision for the space's first commit: what its changes are measured against. */
export async function readParentRevisionWithSizes(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, revision: Revision): Promise<RevisionWithSizes> {
  const parent = revision.parents[0];
  if (parent !== undefined) return readRevisionWithSizes(deps, spaceId, parent);
  return { revision: { commit: '', parents: [], message: '', createdAt: revision.createdAt, pages: [], files: [], reusableContents: [], redirects: new Map() }, sizes: new Map() };
}

/** The space's history: its primary branch's first-parent commits, newest first, from `from` (its head by default). */
export async function readSpaceHistory(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, options: { limit: number; from?: string }): Promise<{ entries: HistoryEntry[]; next?: string }> {
  const repo = deps.repositories.open(spaceId);
  const head = await resolveRevision(repo, options.from ?? primaryBranch);
  return firstParentHistory(repo, head, options.limit);
}
