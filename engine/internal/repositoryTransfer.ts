import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { forgetPageFilesSnapshot } from '../revision/pageFilesSnapshot.js';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { markFrozen } from './frozenRepository.js';
import { syncDirectory } from './gitFs.js';
import { gitEnvironment, gitOrFail } from '../git/runGit.js';
import { withRepositoryLock } from '../lock.js';
import { closeRepository, primaryBranch } from '../repository.js';

/** Every ref of a repository and the object it points at. */
export type RefValues = Record<string, string>;

export async function repositoryRefs(gitdir: string): Promise<RefValues> {
  const listed = await gitOrFail(gitdir, ['for-each-ref', '--format=%(objectname) %(refname)']);
  return Object.fromEntries(
    listed
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(line.indexOf(' ') + 1), line.slice(0, line.indexOf(' '))]),
  );
}

/**
 * The whole repository as a git bundle (every ref and what it reaches), streamed as git writes it,
 * holding the repository lock until it is written (maintenance doesn't repack under it).
 */
export function bundleRepository(gitdir: string): Readable {
  const out = new PassThrough();
  withRepositoryLock(
    gitdir,
    () =>
      new Promise<void>((resolve) => {
        const child = spawn('git', ['--git-dir', gitdir, 'bundle', 'create', '--quiet', '-', '--all'], { env: gitEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.stdout.pipe(out, { end: false });
        out.on('close', () => child.kill()); // the reader went away
        child.on('close', (code) => {
          if (code === 0) out.end();
          else out.destroy(new Error(`git bundle failed: ${stderr.trim() || `exit code ${code}`}`));
          resolve();
        });
      }),
  ).catch((error: Error) => out.destroy(error));
  return out;
}

/**
 * Makes the repository at `gitdir` from a bundle file: fetched into a folder beside it, checked
 * with `git fsck --full`, frozen (it takes no write until the move that brought it ends), then
 * renamed into place over any copy an earlier attempt left. Its refs, for the caller to compare
 * with the source's.
 */
export async function receiveBundle(gitdir: string, bundleFile: string): Promise<RefValues> {
  const incoming = `${gitdir}.incoming`;
  rmSync(incoming, { recursive: true, force: true });
  mkdirSync(path.dirname(gitdir), { recursive: true });
  try {
    await gitOrFail(incoming, ['init', '--quiet', '--bare', `--initial-branch=${primaryBranch}`, incoming]);
    await gitOrFail(incoming, ['fetch', '--quiet', bundleFile, '+refs/*:refs/*']);
    await gitOrFail(incoming, ['fsck', '--full', '--no-progress', '--no-dangling']);
    await markFrozen(incoming);
    const refs = await repositoryRefs(incoming);
    closeRepository(gitdir);
    rmSync(gitdir, { recursive: true, force: true });
    renameSync(incoming, gitdir);
    await syncDirectory(path.dirname(gitdir));
    return refs;
  } finally {
    rmSync(incoming, { recursive: true, force: true });
  }
}

/**
 * Under the repository lock, gives `decide` the repository's refs; when it answers true (the
 * space now lives elsewhere), moves the repository aside (`<gitdir>.moved`) before the lock is
 * let go, so no request here reads it again. Whether it was moved aside.
 */
export function handOverRepository(gitdir: string, decide: (refs: RefValues) => Promise<boolean>): Promise<boolean> {
  return withRepositoryLock(gitdir, async () => {
    if (!(await decide(await repositoryRefs(gitdir)))) return false;
    rmSync(movedAside(gitdir), { recursive: true, force: true });
    renameSync(gitdir, movedAside(gitdir));
    closeRepository(gitdir);
    await forgetPageFilesSnapshot(gitdir);
    await syncDirectory(path.dirname(gitdir));
    return true;
  });
}

const movedAside = (gitdir: string) => `${gitdir}.moved`;

/** Deletes what handOverRepository set aside. */
export function removeMovedAside(gitdir: string): void {
  rmSync(movedAside(gitdir), { recursive: true, force: true });
}
