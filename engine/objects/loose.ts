import fs from 'node:fs/promises';
import path from 'node:path';
import { constants, inflateSync } from 'node:zlib';
import { parseLooseObject, type GitObject } from './gitObject.js';

const loosePath = (gitdir: string, oid: string) => path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

/** A loose object (what Quire writes), inflated with Node's native zlib; null when there is no such file. */
export async function readLooseObject(gitdir: string, oid: string): Promise<GitObject | null> {
  let raw: Buffer;
  try {
    raw = await fs.readFile(loosePath(gitdir, oid));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseLooseObject(inflateSync(raw), oid);
}

/** A loose object's size from its header, inflating only its first bytes; null when there is no such file. */
export async function looseObjectSize(gitdir: string, oid: string): Promise<number | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(loosePath(gitdir, oid), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const start = inflateSync(buffer.subarray(0, bytesRead), { finishFlush: constants.Z_SYNC_FLUSH });
    const header = start.subarray(0, start.indexOf(0)).toString('latin1');
    return Number(header.split(' ')[1]);
  } finally {
    await handle.close();
  }
}
