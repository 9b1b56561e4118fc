import { readFileSync } from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { gitFs as fs } from './gitFs.js';
import { branchRef, type Repository } from './repository.js';

const commitId = /^[0-9a-f]{40}$/;

/**
 * The commit a branch points at, or null when the branch doesn't exist. Read on the path of every
 * content request, so synchronously: the loose ref (41 bytes), else its line in `packed-refs`
 * (where `git gc` and `git pack-refs` move refs), as git itself resolves them. A symbolic ref
 * is left to isomorphic-git.
 */
export async function readBranch(repo: Repository, branch: string): Promise<string | null> {
  const ref = branchRef(branch);
  const loose = readIfExists(path.join(repo.gitdir, ref));
  if (loose !== null) {
    const value = loose.trim();
    if (commitId.test(value)) return value;
    return git.resolveRef({ fs, gitdir: repo.gitdir, ref });
  }
  return packedRef(readIfExists(path.join(repo.gitdir, 'packed-refs')), ref);
}

function readIfExists(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

/** A ref's value in the text of `packed-refs` (`<id> <ref>` lines; `#` headers and `^` peeled lines skipped). */
export function packedRef(packed: string | null, ref: string): string | null {
  if (packed === null) return null;
  const suffix = ` ${ref}`;
  for (const line of packed.split('\n')) {
    if (line.length === 41 + ref.length && line.endsWith(suffix) && commitId.test(line.slice(0, 40))) return line.slice(0, 40);
  }
  return null;
}
