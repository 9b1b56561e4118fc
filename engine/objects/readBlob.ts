import type { Repository } from '../repository.js';
import { readObject } from './readObject.js';

/** A blob's bytes. */
export async function readBlob(repo: Repository, oid: string): Promise<Buffer> {
  const { type, data } = await readObject(repo, oid);
  if (type !== 'blob') throw new Error(`object ${oid} is a ${type}, not a blob`);
  return data;
}
