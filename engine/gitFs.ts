import { randomBytes } from 'node:crypto';
import { closeSync, fsync, mkdirSync, openSync, renameSync, rmSync, write, writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const fsyncAsync = promisify(fsync);
const writeAsync = promisify(write);
/** Data up to this size is written inline (a copy into the page cache, microseconds); larger off the event loop. */
const inlineWriteBytes = 1024 * 1024;

/*
 * A durable write's metadata steps (open, close, rename, link, mkdir) take microseconds on a local
 * disk, but each costs a trip through libuv's thread pool when made asynchronously (about 45 µs
 * idle, more under load; a commit makes dozens). They are made inline; the syncs, which wait on
 * the disk, stay off the event loop.
 */

/** Makes the renames in a folder durable (the names, not only the files' bytes). */
export async function syncDirectory(folder: string): Promise<void> {
  const fd = openSync(folder, 'r');
  try {
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a file (`flags`: `w`, or `wx` for a new one) and syncs its bytes to disk. */
export async function writeSynced(file: string, data: Uint8Array, flags: 'w' | 'wx' = 'w', mode = 0o644): Promise<void> {
  const fd = openSync(file, flags, mode);
  try {
    for (let written = 0; written < data.length; ) {
      const rest = data.subarray(written);
      written += rest.length <= inlineWriteBytes ? writeSync(fd, rest) : (await writeAsync(fd, rest)).bytesWritten;
    }
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
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
  const mode = typeof options === 'object' && options?.mode ? Number(options.mode) : 0o644;
  const encoding = (typeof options === 'string' ? options : options?.encoding) ?? 'utf8';
  const bytes = typeof data === 'string' ? Buffer.from(data, encoding) : data;
  try {
    // A concurrent `git gc` removes object folders it emptied (prune-packed): made again if so,
    // as many times as it takes (it may empty the folder again between the mkdir and the open).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await writeSynced(temporary, bytes, 'w', mode);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 10) throw error;
        mkdirSync(path.dirname(file), { recursive: true });
      }
    }
    renameSync(temporary, file);
    unsyncedFolders.add(path.dirname(file));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export const gitFs = { promises: { ...fs, writeFile: writeFileAtomically } };
