import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Makes the renames in a folder durable (the names, not only the files' bytes). */
export async function syncDirectory(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const unsyncedFolders = new Set<string>();
const syncing = new Set<Promise<unknown>>();

/**
 * Syncs the folders objects were renamed into since the last call: once per commit, before its
 * branch moves. Also waits for syncs another caller started, which may include this caller's folders.
 */
export async function syncWrittenFolders(): Promise<void> {
  const folders = [...unsyncedFolders];
  unsyncedFolders.clear();
  // The set is the process's: a folder gone since (its repository deleted, or emptied by `git gc`)
  // has nothing left to make durable, and must not fail another repository's commit.
  const started = Promise.all(folders.map((folder) => syncDirectory(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  })));
  syncing.add(started);
  try {
    await Promise.all([...syncing]);
  } finally {
    syncing.delete(started);
  }
}

/**
 * The file system isomorphic-git writes through: node's, except that every file is written to a
 * temporary name, synced and renamed into place. isomorphic-git writes objects in place and skips
 * any object file that exists, so a crash mid-write would otherwise leave a torn object that later
 * commits reuse.
 */
async function writeFileAtomically(file: string, data: string | Uint8Array, options?: Parameters<typeof fs.writeFile>[2]): Promise<void> {
  // git's own name for an object being written: `git fsck` and `git gc` know to ignore (and prune) one left by a crash.
  const temporary = path.join(path.dirname(file), `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
  try {
    const mode = typeof options === 'object' && options?.mode ? options.mode : 0o644;
    // A concurrent `git gc` removes object folders it emptied (prune-packed): made again if so,
    // as many times as it takes (it may empty the folder again between the mkdir and the open).
    const open = (attempt: number): Promise<fs.FileHandle> =>
      fs.open(temporary, 'w', mode).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' || attempt === 10) throw error;
        await fs.mkdir(path.dirname(file), { recursive: true });
        return open(attempt + 1);
      });
    const handle = await open(1);
    try {
      await handle.writeFile(data, typeof options === 'string' ? options : options?.encoding ?? undefined);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
    unsyncedFolders.add(path.dirname(file));
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

export const gitFs = { promises: { ...fs, writeFile: writeFileAtomically } };
