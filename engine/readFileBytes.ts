import { readBlob } from './objects/readBlob.js';
import type { Repository } from './repository.js';

/** A file's bytes, by its blob id. */
export function readFileBytes(repo: Repository, oid: string): Promise<Uint8Array> {
  return readBlob(repo, oid);
}
