import fs from 'node:fs/promises';
import path from 'node:path';
import { gitOrFail } from './runGit.js';

const fanout = /^[0-9a-f]{2}$/;

/** How many loose objects the repository holds (isomorphic-git and Quire's own writes leave only these). */
export async function looseObjectCount(gitdir: string): Promise<number> {
  const objects = path.join(gitdir, 'objects');
  const folders = (await fs.readdir(objects).catch(() => [] as string[])).filter((name) => fanout.test(name));
  const counts = await Promise.all(folders.map(async (folder) => (await fs.readdir(path.join(objects, folder)).catch(() => [] as string[])).filter((name) => /^[0-9a-f]{38}$/.test(name)).length));
  return counts.reduce((sum, count) => sum + count, 0);
}

/**
 * Packs the repository's objects and refs with the system git, while it is read and written:
 * `git gc` (pack-refs, then `repack -d -A`: every reachable object in one pack, packed objects no
 * longer reachable turned loose rather than dropped; then a prune of loose unreachable objects
 * older than two weeks). Objects a write has stored but not yet linked to its branch are younger
 * than that and loose, and a push's pack is kept (`.keep`) by git until its refs moved, so
 * nothing in flight is lost; refs are packed under their locks, as Quire's compare-and-swap takes
 * them. Readers find the new pack on their next miss (objects/packs.ts).
 */
export async function repackRepository(gitdir: string): Promise<{ looseBefore: number; looseAfter: number }> {
  const looseBefore = await looseObjectCount(gitdir);
  await gitOrFail(gitdir, ['-c', 'gc.auto=0', '-c', 'gc.writeCommitGraph=true', '-c', 'repack.writeBitmaps=true', 'gc', '--quiet', '--prune=2.weeks.ago']);
  return { looseBefore, looseAfter: await looseObjectCount(gitdir) };
}
