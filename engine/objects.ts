import fs from 'node:fs/promises';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import git from 'isomorphic-git';
import { gitFs } from './gitFs.js';
import type { Repository } from './repository.js';

/**
 * A blob's bytes. Loose objects (what Quire writes) are read and inflated here with Node's
 * native zlib, many times faster than isomorphic-git's JavaScript inflate on a cold read of a
 * large revision; packed ones (after a `git gc`) go through isomorphic-git.
 */
export async function readBlobBytes(repo: Repository, oid: string): Promise<Uint8Array> {
  let raw: Buffer;
  try {
    raw = await fs.readFile(path.join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return (await git.readBlob({ fs: gitFs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob;
  }
  const object = inflateSync(raw);
  const headerEnd = object.indexOf(0);
  if (!object.subarray(0, headerEnd).toString('latin1').startsWith('blob ')) throw new Error(`object ${oid} is not a blob`);
  return object.subarray(headerEnd + 1);
}
