import fs from 'node:fs/promises';
import path from 'node:path';
import { withRepositoryLock } from './lock.js';
import { closeRepository, createRepository, openRepository, type Repository } from './repository.js';

/** Where a space's bare repository lives under the data directory. */
export function spaceGitdir(root: string, spaceId: string): string {
  return path.join(root, 'spaces', `${spaceId}.git`);
}

export async function createSpaceRepository(root: string, spaceId: string): Promise<Repository> {
  await fs.mkdir(path.join(root, 'spaces'), { recursive: true });
  return createRepository(spaceGitdir(root, spaceId));
}

export const openSpaceRepository = (root: string, spaceId: string): Repository => openRepository(spaceGitdir(root, spaceId));

/** A new repository with the same history and branches, copied while no one writes the source. */
export async function copySpaceRepository(root: string, fromSpaceId: string, toSpaceId: string): Promise<Repository> {
  const from = spaceGitdir(root, fromSpaceId);
  const to = spaceGitdir(root, toSpaceId);
  await withRepositoryLock(from, () => fs.cp(from, to, { recursive: true, errorOnExist: true, force: false }));
  return openRepository(to);
}

export async function removeSpaceRepository(root: string, spaceId: string): Promise<void> {
  const gitdir = spaceGitdir(root, spaceId);
  await withRepositoryLock(gitdir, () => fs.rm(gitdir, { recursive: true, force: true }));
  closeRepository(gitdir);
}
