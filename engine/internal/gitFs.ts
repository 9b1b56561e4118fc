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
    await writeAll(fd, data);
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `data` at the file's position: inline up to `inlineWriteBytes`, larger off the event loop. */
async function writeAll(fd: number, data: Uint8Array): Promise<void> {
  for (let written = 0; written < data.length;) {
    const rest = data.subarray(written);
    written += rest.length <= inlineWriteBytes ? writeSync(fd, rest) : (await writeAsync(fd, rest)).bytesWritten;
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
  const started = Promise.all(
    folders.map((folder) =>
      syncDirectory(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    ),
  );
  syncing.add(started);
  try {
    await Promise.all([...syncing]);
  } finally {
    syncing.delete(started);
  }
}

/** A file to write atomically (see writeFilesAtomically). */
export interface FileWrite {
  file: string;
  data: Uint8Array;
  mode?: number;
}

/** Files created and written before the group's syncs start, at most: each holds a descriptor until it is synced. */
const filesPerGroup = 256;

/**
 * Writes each file to a temporary name, syncs it and renames it into place, so a crash never
 * leaves a torn file under the real name; `git fsck` and `git gc` know the temporary names
 * (`tmp_obj_…`) and prune one left by a crash. The files are written as a group: every one is
 * created and written, then all are synced side by side, then all renamed. On ext4 a sync commits
 * the journal, and a file created while a commit is under way waits for it: files created one
 * after the other's sync began made a queue of commits.
 */
export async function writeFilesAtomically(writes: FileWrite[]): Promise<void> {
  for (let start = 0; start < writes.length; start += filesPerGroup) await writeGroup(writes.slice(start, start + filesPerGroup));
}

async function writeGroup(writes: FileWrite[]): Promise<void> {
  const open: Array<{ write: FileWrite; temporary: string; fd: number | undefined }> = [];
  try {
    for (const write of writes) {
      const temporary = path.join(path.dirname(write.file), `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
      const entry = { write, temporary, fd: undefined as number | undefined };
      open.push(entry);
      entry.fd = openCreating(temporary, write.mode ?? 0o644);
      await writeAll(entry.fd, write.data);
    }
    // Every sync settles before anything is closed: a descriptor closed while its sync runs could be reused.
    const synced = await Promise.allSettled(open.map(({ fd }) => fsyncAsync(fd!)));
    const failed = synced.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    for (const entry of open) {
      closeSync(entry.fd!);
      entry.fd = undefined;
      renameSync(entry.temporary, entry.write.file);
      unsyncedFolders.add(path.dirname(entry.write.file));
    }
  } catch (error) {
    for (const { fd, temporary } of open) {
      if (fd !== undefined) closeSync(fd);
      rmSync(temporary, { force: true });
    }
    throw error;
  }
}

/**
 * Creates a temporary file beside where it belongs. A concurrent `git gc` removes object folders
 * it emptied (prune-packed): the folder is made again if so, as many times as it takes (it may
 * empty it again between the mkdir and the open).
 */
function openCreating(file: string, mode: number): number {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return openSync(file, 'w', mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 10) throw error;
      mkdirSync(path.dirname(file), { recursive: true });
    }
  }
}

/**
 * The file system isomorphic-git writes through: node's, except that every file is written
 * atomically (writeFilesAtomically). isomorphic-git writes objects in place and skips any object
 * file that exists, so a crash mid-write would otherwise leave a torn object that later commits reuse.
 */
async function writeFile(file: string, data: string | Uint8Array, options?: Parameters<typeof fs.writeFile>[2]): Promise<void> {
  const mode = typeof options === 'object' && options?.mode ? Number(options.mode) : 0o644;
  const encoding = (typeof options === 'string' ? options : options?.encoding) ?? 'utf8';
  await writeFilesAtomically([{ file, data: typeof data === 'string' ? Buffer.from(data, encoding) : data, mode }]);
}

export const gitFs = { promises: { ...fs, writeFile } };
