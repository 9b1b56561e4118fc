import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createSpaceRepository, spaceGitdir } from './spaceRepositories.js';

const run = promisify(execFile);
const git = (gitdir: string, ...args: string[]) => run('git', ['--git-dir', gitdir, ...args], { maxBuffer: 64 * 1024 * 1024 });

/** The ids of the space repositories kept under `root` (this node's `DATA_DIR/spaces`). */
export async function localSpaceIds(root: string): Promise<string[]> {
  const entries = await readdir(path.join(root, 'spaces'), { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory() && entry.name.endsWith('.git')).map((entry) => entry.name.slice(0, -'.git'.length));
}

/**
 * A space repository as a git bundle: its refs read once, then every object they reach, packed,
 * however pushes and writes go on meanwhile. False when the repository has no ref yet (nothing to keep).
 * `git bundle create` on the live repository reads each ref again as it writes it and leaves out
 * one that moved meanwhile (a busy space lost its `main`), so the refs are first fetched, with
 * their objects, into a snapshot repository of their own (one ref advertisement), and bundled there.
 */
export async function bundleSpaceRepository(root: string, spaceId: string, destination: string): Promise<boolean> {
  const gitdir = spaceGitdir(root, spaceId);
  const snapshot = await mkdtemp(path.join(path.dirname(destination), `.${spaceId}-`));
  try {
    await run('git', ['init', '--quiet', '--bare', snapshot]);
    await git(snapshot, 'fetch', '--quiet', '--no-write-fetch-head', gitdir, '+refs/*:refs/*');
    const refs = (await git(snapshot, 'for-each-ref', '--format=%(refname)')).stdout.trim();
    if (!refs) return false;
    await git(snapshot, 'bundle', 'create', destination, '--all');
    return true;
  } finally {
    await rm(snapshot, { recursive: true, force: true });
  }
}

/** A space repository made again from its bundle: a new repository holding the bundle's refs and objects. */
export async function restoreSpaceRepository(root: string, spaceId: string, bundle: string | undefined): Promise<void> {
  await createSpaceRepository(root, spaceId);
  if (!bundle) return;
  const gitdir = spaceGitdir(root, spaceId);
  await git(gitdir, 'fetch', '--quiet', bundle, '+refs/*:refs/*');
}
