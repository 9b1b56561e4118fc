import git from 'isomorphic-git';
import { gitFs } from '../internal/gitFs.js';
import type { Repository } from '../repository.js';
import type { GitObject } from './gitObject.js';
import { looseObjectSize, readLooseObject } from './loose.js';
import type { Pack } from './pack.js';
import { objectsFolder, packsIn, rescanPacks } from './packs.js';
import { recentObject } from './recentObjects.js';
import { stagedObject } from './stagedObjects.js';

let checkBeforeRead: (() => void) | undefined;

/**
 * Runs `check` before every object this thread reads, and lets it throw: the search indexer's
 * thread stops its task this way when asked to. Stopping a thread from outside (Worker.terminate)
 * in the middle of an inflate can abort the whole process: Node asserts when a thread's zlib
 * handle is torn down between its creation and its init.
 */
export function checkBeforeEachRead(check: (() => void) | undefined): void {
  checkBeforeRead = check;
}

/**
 * Any object of the repository, loose or packed, read by the engine itself: loose objects
 * inflated with Node's native zlib, packed ones read in place from their pack (see Pack). What
 * neither finds (alternates, an old index format) is left to isomorphic-git.
 */
export async function readObject(repo: Repository, oid: string): Promise<GitObject> {
  checkBeforeRead?.();
  const written = recentObject(repo.gitdir, oid) ?? stagedObject(repo.gitdir, oid);
  if (written) return written;
  if (repo.quarantine) {
    const packed = await findPacked(repo.quarantine, oid);
    if (packed) return packed.pack.read(packed.offset, (base) => readObject(repo, base));
    const loose = await readLooseObject(repo.quarantine, oid);
    if (loose) return loose;
  }
  const packed = await findPacked(objectsFolder(repo.gitdir), oid);
  if (packed) return packed.pack.read(packed.offset, (base) => readObject(repo, base));
  const loose = await readLooseObject(objectsFolder(repo.gitdir), oid);
  if (loose) return loose;
  if (await rescanPacks(repo.gitdir)) return readObject(repo, oid);
  const { type, object } = await git.readObject({ fs: gitFs, gitdir: repo.gitdir, oid, format: 'content', cache: repo.cache });
  return { type: type as GitObject['type'], data: Buffer.from(object as Uint8Array) };
}

/** An object's size in bytes, read from its header (a blob's size without reading the blob). */
export async function readObjectSize(repo: Repository, oid: string): Promise<number> {
  const staged = stagedObject(repo.gitdir, oid);
  if (staged) return staged.data.length;
  for (const objects of repo.quarantine ? [repo.quarantine, objectsFolder(repo.gitdir)] : [objectsFolder(repo.gitdir)]) {
    const packed = await findPacked(objects, oid);
    if (packed) return packed.pack.size(packed.offset);
    const loose = await looseObjectSize(objects, oid);
    if (loose !== null) return loose;
  }
  return (await readObject(repo, oid)).data.length;
}

async function findPacked(objects: string, oid: string): Promise<{ pack: Pack; offset: number } | undefined> {
  const { list } = await packsIn(objects);
  if (list.length === 0) return undefined;
  const name = Buffer.from(oid, 'hex');
  if (name.length !== 20) return undefined;
  for (const pack of list) {
    const offset = pack.index.find(name);
    if (offset !== undefined) return { pack, offset };
  }
  return undefined;
}

/** Whether the repository holds an object of this id (and type). */
export async function hasObject(repo: Repository, oid: string, type?: GitObject['type']): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return false;
  try {
    const object = await readObject(repo, oid);
    return type === undefined || object.type === type;
  } catch {
    return false;
  }
}
