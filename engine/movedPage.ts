import { allPages } from './allPages.js';
import { findPageById, findPageByPath } from './findPage.js';
import { Lru } from './runtime/lru.js';
import { pagesByFile } from './resolveLink.js';
import { readRevision } from './readRevision.js';
import type { Repository } from './repository.js';

/** How many revisions back a moved page is looked for. */
const depth = 30;

/**
 * The paths pages had in the revisions before a head (the most recent first wins), by path: built
 * once per head, so a lookup of an unknown path costs a map read, not a walk through history.
 */
const histories = new Lru<string, Promise<Map<string, string>>>(64);

function pathHistory(repo: Repository, head: string): Promise<Map<string, string>> {
  const key = `${repo.gitdir}:${head}`;
  let history = histories.get(key);
  if (!history) {
    history = (async () => {
      const paths = new Map<string, string>();
      let commit = (await readRevision(repo, head)).parents[0];
      for (let step = 0; commit && step < depth; step += 1) {
        const revision = await readRevision(repo, commit);
        for (const page of allPages(revision.pages)) if (page.kind !== 'link' && !paths.has(page.path)) paths.set(page.path, page.id);
        commit = revision.parents[0];
      }
      return paths;
    })();
    history.catch(() => histories.delete(key));
    histories.set(key, history);
  }
  return history;
}

/**
 * Where a page that was at `pagePath` lives now: the page `.gitbook.yaml`'s `redirects:` names for
 * the path, else the page that last had the path within the `depth` revisions before `head`, at
 * its path in `head`. Undefined when the path is a page of `head` itself, when nothing says where
 * it went, or when that page is gone.
 */
export async function movedPagePath(repo: Repository, head: string, pagePath: string): Promise<string | undefined> {
  const current = await readRevision(repo, head);
  if (findPageByPath(current, pagePath)) return undefined;
  const declared = current.redirects.get(pagePath);
  const target = declared === undefined ? undefined : pagesByFile(current).get(declared);
  if (target && target.kind !== 'link' && target.path !== pagePath) return target.path;
  const pageId = (await pathHistory(repo, head)).get(pagePath);
  const now = pageId === undefined ? undefined : findPageById(current, pageId);
  return now && now.kind !== 'link' && now.path !== pagePath ? now.path : undefined;
}
