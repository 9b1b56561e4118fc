import type { Change } from '../change.js';
import { InvalidChangeError } from '../errors/index.js';
import { objectId, treeContent } from '../objects/hashObject.js';
import { writeLooseObjects, type NewObject } from '../objects/loose.js';
import { readTree, type TreeEntry } from '../objects/readTree.js';
import type { Repository } from '../repository.js';

interface PathChange {
  segments: string[];
  change: Change;
}

/**
 * Writes the tree of `baseTree` (null: an empty one) with the changes applied, and its new blobs
 * and subtrees, as objects only (no index, no working tree, no ref moves); returns its id.
 * Unchanged subtrees are reused as they are; folders left empty disappear.
 */
export async function buildTree(repo: Repository, baseTree: string | null, changes: Change[]): Promise<string> {
  const { tree, objects } = await stageTree(repo, baseTree, changes);
  await writeLooseObjects(repo.gitdir, objects);
  return tree;
}

/**
 * buildTree without the writing: the tree's id and its new objects (blobs and subtrees), ids
 * computed, for the caller to write, a commit of the tree can be written in the same group
 * (writeLooseObjects: created together, synced side by side, which costs about one sync).
 */
export async function stageTree(repo: Repository, baseTree: string | null, changes: Change[]): Promise<{ tree: string; objects: NewObject[] }> {
  const objects = new Map<string, NewObject>();
  const stage = (type: 'blob' | 'tree', content: Uint8Array) => {
    const oid = objectId(type, content);
    objects.set(oid, { oid, type, content });
    return oid;
  };
  const tree = (await applyChanges(repo, baseTree, changes.map(splitPath), stage)) ?? stage('tree', treeContent([]));
  return { tree, objects: [...objects.values()] };
}

type Stage = (type: 'blob' | 'tree', content: Uint8Array) => string;

function splitPath(change: Change): PathChange {
  const segments = change.path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment === '.git')) {
    throw new InvalidChangeError(change.path, `"${change.path}" is not a path a repository can hold`);
  }
  return { segments, change };
}

/** Applies changes to a tree, depth first; returns the new tree's id, or null when it ends up empty. */
async function applyChanges(repo: Repository, treeOid: string | null, changes: PathChange[], stage: Stage, folder = ''): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (treeOid) for (const entry of await readTree(repo, treeOid)) entries.set(entry.path, entry);
  const byName = new Map<string, PathChange[]>();
  for (const change of changes) {
    const [name] = change.segments;
    byName.set(name!, [...(byName.get(name!) ?? []), change]);
  }
  for (const [name, group] of byName) {
    const leaves = group.filter((c) => c.segments.length === 1);
    const deeper = group.filter((c) => c.segments.length > 1).map((c) => ({ ...c, segments: c.segments.slice(1) }));
    if (leaves.length > 0 && deeper.length > 0) throw new InvalidChangeError(`${folder}${name}`, `"${folder}${name}" can't be both a file and a folder`);
    for (const { change } of leaves) {
      if ('remove' in change) entries.delete(name);
      else {
        const blob = typeof change.content === 'string' ? Buffer.from(change.content, 'utf8') : change.content;
        entries.set(name, { mode: '100644', path: name, oid: stage('blob', blob), type: 'blob' });
      }
    }
    if (deeper.length > 0) {
      const current = entries.get(name);
      const subtree = await applyChanges(repo, current?.type === 'tree' ? current.oid : null, deeper, stage, `${folder}${name}/`);
      if (subtree) entries.set(name, { mode: '040000', path: name, oid: subtree, type: 'tree' });
      else entries.delete(name);
    }
  }
  if (entries.size === 0) return null;
  return stage('tree', treeContent([...entries.values()]));
}
