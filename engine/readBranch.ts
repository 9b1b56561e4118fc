import { readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { gitFs as fs } from './internal/gitFs.js';
import { Lru } from './runtime/lru.js';
import { branchRef, type Repository } from './repository.js';

const commitId = /^[0-9a-f]{40}$/;

export interface ReadBranchOptions {
  /**
   * A `stat` of the ref taken earlier in this turn of the event loop will do (see `statThisTurn`):
   * for reads that answer requests, never for a writer deciding what to commit on.
   */
  sameTurn?: boolean;
}

/**
 * The commit a branch points at, or null when the branch doesn't exist. Read on the path of every
 * content request, so synchronously and mostly without reading: a loose ref's value is kept with
 * the identity of its file (inode, size, change and modification times), and one `stat` tells
 * whether it is still the file read (see `heads`). Else the loose ref (41 bytes), else its line in
 * `packed-refs` (where `git gc` and `git pack-refs` move refs), as git itself resolves them. A
 * symbolic ref is left to isomorphic-git.
 */
export async function readBranch(repo: Repository, branch: string, options: ReadBranchOptions = {}): Promise<string | null> {
  const ref = branchRef(branch);
  const file = `${repo.gitdir}/${ref}`; // a ref name needs none of path.join's normalizing
  const taken = options.sameTurn ? statThisTurn(file) : { stat: statIfExists(file), now: true };
  const stat = taken.stat;
  if (stat) {
    const known = heads.get(file);
    if (known && sameFile(known, stat)) return known.head;
  }
  const loose = stat ? readIfExists(file) : null;
  if (loose !== null) {
    const value = loose.trim();
    if (!commitId.test(value)) return git.resolveRef({ fs, gitdir: repo.gitdir, ref });
    // The stat was taken just before the read: if the file was replaced in between, the next stat
    // differs. (One from earlier in the turn may be older than what was read: not kept.)
    if (stat && taken.now && stat.ctimeMs < Date.now() - racyMarginMs) heads.set(file, { ino: stat.ino, size: stat.size, ctimeMs: stat.ctimeMs, mtimeMs: stat.mtimeMs, head: value });
    return value;
  }
  return packedRef(readIfExists(path.join(repo.gitdir, 'packed-refs')), ref);
}

/**
 * Loose refs read, by file. Every writer (Quire in any process, git itself) replaces a ref by
 * renaming a new file over it, so a new value comes with a new change time, and mostly a new
 * inode. File times have a clock tick's resolution, and a freed inode can come back: a value is
 * kept only once its file is older than `racyMarginMs` (git's "racily clean" rule), so any later
 * write has a later change time than the one kept and can't be mistaken for it.
 */
const heads = new Lru<string, { ino: number; size: number; ctimeMs: number; mtimeMs: number; head: string }>(10_000);
const racyMarginMs = 1000;

const sameFile = (known: { ino: number; size: number; ctimeMs: number; mtimeMs: number }, stat: Stats) =>
  known.ino === stat.ino && known.size === stat.size && known.ctimeMs === stat.ctimeMs && known.mtimeMs === stat.mtimeMs;

/** Whether a head of the branch (`head`, if given) is kept in `heads` (for tests: a value is kept only once its file is old enough). */
export function isHeadKept(repo: Repository, branch: string, head?: string): boolean {
  const kept = heads.get(`${repo.gitdir}/${branchRef(branch)}`);
  return kept !== undefined && (head === undefined || kept.head === head);
}

/**
 * Ref files' stats taken in this turn of the event loop, cleared in its check phase. The requests
 * handled in one poll phase arrived before its poll returned, so before any stat taken while
 * handling them: for each of them, a stat from earlier in the turn is as fresh as its own would
 * be. This process's own ref writes drop their file's entry (`forgetRefStat`); another process's
 * write shows from the next turn on. Under load one `stat` then serves a turn's requests, not each.
 */
const statsThisTurn = new Map<string, Stats | undefined>();
let clearing = false;

function statThisTurn(file: string): { stat: Stats | undefined; now: boolean } {
  if (statsThisTurn.has(file)) return { stat: statsThisTurn.get(file), now: false };
  const stat = statIfExists(file);
  statsThisTurn.set(file, stat);
  if (!clearing) {
    clearing = true;
    setImmediate(() => {
      statsThisTurn.clear();
      clearing = false;
    });
  }
  return { stat, now: true };
}

/** After this process moves a branch: the next read stats its ref again, even within this turn. */
export function forgetRefStat(repo: Repository, branch: string): void {
  statsThisTurn.delete(`${repo.gitdir}/${branchRef(branch)}`);
}

function statIfExists(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
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
