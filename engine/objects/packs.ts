import fs from 'node:fs/promises';
import path from 'node:path';
import { Pack } from './pack.js';
import { UnsupportedPackIndex } from './packIndex.js';

const closeDelayMs = 30_000;

interface Packs {
  list: Pack[];
  /** The pack folder as listed last, to see whether a rescan found anything new. */
  names: string;
}

// By object folder: a repository's `objects/`, or a push's quarantine.
const opened = new Map<string, Promise<Packs>>();

export const objectsFolder = (gitdir: string) => path.join(gitdir, 'objects');

/** The repository's packs, opened once (their indexes read, their files kept open) and reused. */
export const packsOf = (gitdir: string): Promise<Packs> => packsIn(objectsFolder(gitdir));

/** The packs of an object folder (`<objects>/pack/`), opened once and reused. */
export function packsIn(objects: string): Promise<Packs> {
  let packs = opened.get(objects);
  if (!packs) {
    packs = scan(objects, { list: [], names: '' });
    opened.set(objects, packs);
    packs.catch(() => opened.delete(objects));
  }
  return packs;
}

/**
 * Lists the pack folder again (after a miss: a `git push`, `git repack` or `git gc` may have
 * added packs): new ones are opened, ones git removed are closed. Returns whether anything changed.
 */
export async function rescanPacks(gitdir: string): Promise<boolean> {
  const objects = objectsFolder(gitdir);
  const before = await packsIn(objects);
  const after = scan(objects, before);
  opened.set(objects, after);
  return (await after).names !== before.names;
}

async function scan(objects: string, previous: Packs): Promise<Packs> {
  const folder = path.join(objects, 'pack');
  const files = await fs.readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const names = files.filter((name) => name.endsWith('.idx') && files.includes(`${name.slice(0, -4)}.pack`)).sort();
  const keep = new Map(previous.list.map((pack) => [pack.path, pack]));
  const opened = await Promise.all(
    names.map((name) => {
      const packPath = path.join(folder, `${name.slice(0, -4)}.pack`);
      // A pack `git repack -d` removed since the listing is skipped: its objects are in a newer one.
      // One with an index older than version 2 (git before 1.5) is left to isomorphic-git.
      return (
        keep.get(packPath) ??
        Pack.open(packPath, path.join(folder, name)).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error instanceof UnsupportedPackIndex ? null : Promise.reject(error)))
      );
    }),
  );
  const list = opened.filter((pack): pack is Pack => pack !== null);
  // Reads under way may still use a pack git removed (its file stays readable while open): closed a little later.
  const removed = previous.list.filter((pack) => !list.includes(pack));
  if (removed.length > 0) setTimeout(() => removed.forEach((pack) => void pack.close().catch(() => undefined)), closeDelayMs).unref();
  return { list, names: list.map((pack) => pack.path).join('\n') };
}

/**
 * Closes the repository's pack files: at once when it is being deleted, `afterMs` later when it
 * left the cache of open repositories (reads under way finish; later ones open the packs anew).
 */
export function closePacks(gitdir: string, afterMs = 0): void {
  closePacksIn(objectsFolder(gitdir), afterMs);
}

/** closePacks for an object folder (a push's quarantine, once the push is decided). */
export function closePacksIn(objects: string, afterMs = 0): void {
  const packs = opened.get(objects);
  opened.delete(objects);
  const close = () => void packs?.then((open) => Promise.all(open.list.map((pack) => pack.close()))).catch(() => undefined);
  if (afterMs === 0) close();
  else setTimeout(close, afterMs).unref();
}
