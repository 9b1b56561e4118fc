import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants, deflate, deflateSync, inflateSync } from 'node:zlib';
import { gitFs } from '../gitFs.js';
import { parseLooseObject, type GitObject } from './gitObject.js';
import { rememberObject } from './recentObjects.js';

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

const deflateAsync = promisify(deflate);
/** Objects up to this size are compressed on the spot (tens of microseconds); larger ones off the event loop. */
const deflateInlineBytes = 64 * 1024;
/** Objects up to this size are kept in memory once written, for their next reader (see recentObjects). */
const rememberedBytes = 1024 * 1024;

/**
 * Writes an object whose id the caller computed (objects/hashObject) as a loose object, unless
 * the repository has that file already (git never rewrites an object): compressed with Node's
 * native zlib and written through gitFs (a temporary file, synced, renamed into place), as
 * isomorphic-git would, without its hashing the object again and compressing it through web streams.
 */
export async function writeLooseObject(gitdir: string, oid: string, type: 'blob' | 'tree' | 'commit', content: Uint8Array): Promise<void> {
  const file = loosePath(gitdir, oid);
  if (existsSync(file)) return; // inline: a stat takes microseconds, a trip through the thread pool far more
  const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`, 'latin1'), content]);
  const deflated = wrapped.length <= deflateInlineBytes ? deflateSync(wrapped) : await deflateAsync(wrapped);
  await gitFs.promises.writeFile(file, deflated);
  if (content.byteLength <= rememberedBytes) rememberObject(gitdir, oid, { type, data: Buffer.from(content) });
}
