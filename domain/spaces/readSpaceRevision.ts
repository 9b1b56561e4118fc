import { fileSizes, findPageById, firstParentHistory, pathHistory, primaryBranch, readRevision, resolveRevision, type HistoryEntry, type Revision } from '../../engine/index.js';
import { missing } from '../common/errors.js';
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

/**
 * A page's history: the primary branch's first-parent commits that changed its markdown file, as
 * it is named at the head (a move ends the history, as `git log` without `--follow`), newest first.
 */
export async function readPageHistory(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, pageId: string, options: { limit: number; from?: string }) {
  const revision = await readSpaceRevision(deps, spaceId);
  const page = findPageById(revision, pageId);
  if (!page || page.kind !== 'document' || !page.file) throw missing(`Page ${pageId} not found in revision ${revision.commit}`);
  const repo = deps.repositories.open(spaceId);
  const head = options.from ? await resolveRevision(repo, options.from) : revision.commit;
  return { page, history: await pathHistory(repo, head, page.file, { limit: options.limit, scan: 2000 }) };
}
