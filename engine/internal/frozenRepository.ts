import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { syncDirectory, writeSynced } from './gitFs.js';
import { withRepositoryLock } from '../lock.js';

/** A file in the repository that no git command reads: while it is there, no branch moves. */
const markerOf = (gitdir: string) => path.join(gitdir, 'quire-moving');

/** Whether the repository is frozen: compareAndSwapBranch checks this holding the ref's lock. */
export const isFrozen = (gitdir: string): boolean => existsSync(markerOf(gitdir));

/**
 * Freezes the repository (a space being moved to another storage): taken under the repository
 * lock, so every write under way has moved its branch or will see the marker; reads go on.
 */
export function freezeRepository(gitdir: string): Promise<void> {
  return withRepositoryLock(gitdir, () => markFrozen(gitdir));
}

/** Freezes a repository no one else knows of yet (a copy being received). */
export async function markFrozen(gitdir: string): Promise<void> {
  await writeSynced(markerOf(gitdir), Buffer.from('moving\n'));
  await syncDirectory(gitdir);
}

export function thawRepository(gitdir: string): Promise<void> {
  return withRepositoryLock(gitdir, async () => {
    if (!isFrozen(gitdir)) return;
    rmSync(markerOf(gitdir));
    await syncDirectory(gitdir);
  });
}
