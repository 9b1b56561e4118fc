import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants, deflate, deflateSync, inflateSync } from 'node:zlib';
import { ownedBytes } from '../runtime/cacheBudget.js';
import { writeFilesAtomically } from '../internal/gitFs.js';
import { parseLooseObject, type GitObject } from './gitObject.js';
import { rememberObject } from './recentObjects.js';

const loosePath = (gitdir: string, oid: string) => path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
const looseIn = (objects: string, oid: string) => path.join(objects, oid.slice(0, 2), oid.slice(2));

/**
 * A loose object (what Quire writes), inflated with Node's native zlib; null when there is no such
 * file. `objects` is an object folder: a repository's `objects/`, or a push's quarantine.
 */
export async function readLooseObject(objects: string, oid: string): Promise<GitObject | null> {
  let raw: Buffer;
  try {
    raw = await fs.readFile(looseIn(objects, oid));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseLooseObject(inflateSync(raw), oid);
}

/** A loose object's size from its header, inflating only its first bytes; null when there is no such file. */
export async function looseObjectSize(objects: string, oid: string): Promise<number | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(looseIn(objects, oid), 'r');
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

/** An object to write, its id computed by the caller (objects/hashObject). */
export interface NewObject {
  oid: string;
  type: 'blob' | 'tree' | 'commit';
  content: Uint8Array;
}

/**
 * Writes objects whose ids the caller computed as loose objects, skipping those the repository
 * has as files already (git never rewrites an object): compressed with Node's native zlib and
 * written as one group through gitFs (temporary files, synced together, renamed into place), as
 * isomorphic-git would, without its hashing each object again and compressing it through web streams.
 */
export async function writeLooseObjects(gitdir: string, objects: NewObject[]): Promise<void> {
  const writes: Array<{ file: string; data: Uint8Array }> = [];
  const written: NewObject[] = [];
  const seen = new Set<string>();
  for (const object of objects) {
    const file = loosePath(gitdir, object.oid);
    if (seen.has(object.oid) || existsSync(file)) continue; // inline: a stat takes microseconds, a trip through the thread pool far more
    seen.add(object.oid);
    const wrapped = Buffer.concat([Buffer.from(`${object.type} ${object.content.length}\0`, 'latin1'), object.content]);
    writes.push({ file, data: wrapped.length <= deflateInlineBytes ? deflateSync(wrapped) : await deflateAsync(wrapped) });
    written.push(object);
  }
  await writeFilesAtomically(writes);
  for (const { oid, type, content } of written) if (content.byteLength <= rememberedBytes) rememberObject(gitdir, oid, { type, data: ownedBytes(content) });
}
