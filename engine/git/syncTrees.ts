import YAML from 'yaml';
import type { Author } from '../change.js';
import { commitContent } from '../objects/commitObject.js';
import { objectId, treeContent } from '../objects/hashObject.js';
import { writeLooseObjects } from '../objects/loose.js';
import { readBlob } from '../objects/readBlob.js';
import { readTree, type TreeEntry } from '../objects/readTree.js';
import type { Repository } from '../repository.js';
import { gitOrFail } from './runGit.js';

const segmentsOf = (folder: string) => folder.split('/').filter((segment) => segment !== '' && segment !== '.');

/** The tree at `folder` inside a tree ('' or '.': the tree itself), or null when there is none. */
export async function subtreeAt(repo: Repository, tree: string, folder: string): Promise<string | null> {
  let current = tree;
  for (const segment of segmentsOf(folder)) {
    if (segment === '..') return null;
    const entry = (await readTree(repo, current)).find((candidate) => candidate.path === segment);
    if (!entry || entry.type !== 'tree') return null;
    current = entry.oid;
  }
  return current;
}

/**
 * The folder a Git Sync tree keeps its content in: `.gitbook.yaml`'s `root` (`./docs/` → `docs`),
 * '' without one. Unreadable YAML counts as no `root`.
 */
export async function gitbookRoot(repo: Repository, tree: string): Promise<string> {
  const config = (await readTree(repo, tree)).find((entry) => entry.path === '.gitbook.yaml' && entry.type === 'blob');
  if (!config) return '';
  try {
    const parsed: unknown = YAML.parse((await readBlob(repo, config.oid)).toString('utf8'));
    const root = parsed && typeof parsed === 'object' ? (parsed as { root?: unknown }).root : undefined;
    return typeof root === 'string' ? segmentsOf(root).join('/') : '';
  } catch {
    return '';
  }
}

/** `root` (null: an empty tree) with `folder` replaced by `subtree`; the new trees are written. */
export async function withSubtree(repo: Repository, root: string | null, folder: string, subtree: string): Promise<string> {
  const segments = segmentsOf(folder);
  if (segments.length === 0) return subtree;
  const written: Array<{ oid: string; type: 'tree'; content: Buffer }> = [];
  const replace = async (tree: string | null, index: number): Promise<string> => {
    if (index === segments.length) return subtree;
    const entries: TreeEntry[] = tree ? await readTree(repo, tree) : [];
    const name = segments[index]!;
    const existing = entries.find((entry) => entry.path === name);
    const child = await replace(existing?.type === 'tree' ? existing.oid : null, index + 1);
    const content = treeContent([...entries.filter((entry) => entry.path !== name), { mode: '040000', path: name, oid: child, type: 'tree' }]);
    const oid = objectId('tree', content);
    written.push({ oid, type: 'tree', content });
    return oid;
  };
  const top = await replace(root, 0);
  await writeLooseObjects(repo.gitdir, written);
  return top;
}

/** Writes a commit object (no ref moves) and returns its id. */
export async function writeCommit(repo: Repository, commit: { tree: string; parents: string[]; message: string; author: Author }): Promise<string> {
  const person = { name: commit.author.name, email: commit.author.email, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const content = commitContent({ tree: commit.tree, parents: commit.parents, author: person, committer: person, message: commit.message });
  const oid = objectId('commit', content);
  await writeLooseObjects(repo.gitdir, [{ oid, type: 'commit', content }]);
  return oid;
}

/** Keeps a commit that no branch holds (a standalone import's revision) from being pruned: `refs/quire/revisions/<commit>`. */
export async function keepRevision(repo: Repository, commit: string): Promise<void> {
  await gitOrFail(repo.gitdir, ['update-ref', `refs/quire/revisions/${commit}`, commit]);
}

/** The subjects of the first-parent commits after `from` (null: all) up to `to`, oldest first. */
export async function firstParentSubjects(repo: Repository, from: string | null, to: string): Promise<string[]> {
  const range = from ? `${from}..${to}` : to;
  const out = await gitOrFail(repo.gitdir, ['log', '--first-parent', '--reverse', '--format=%s', range, '--']).catch(() => '');
  return out.split('\n').filter(Boolean);
}
