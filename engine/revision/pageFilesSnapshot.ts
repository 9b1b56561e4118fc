import { existsSync } from 'node:fs';
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import type { PageFile } from '../layout/pageFile.js';
import type { Repository } from '../repository.js';
import { turnPauser } from '../internal/turns.js';

/**
 * The parsed page files of the repository's revision last built mostly from its objects, kept in
 * one file beside the repository (`<gitdir>.quire-page-files.json`: nothing of git's, nor in the
 * way of a removal of the repository's folder). A revision built with none of its pages in memory
 * (the first read after a restart) takes the page files it finds there instead of reading and
 * inflating one object per page: a page file depends only on its blob's id, so a stale snapshot is
 * never wrong, only less useful. It is a cache: a file that is missing, torn or of another format
 * is ignored.
 */
const snapshotFile = (gitdir: string) => `${gitdir}.quire-page-files.json`;
const format = 1;
/** Writes of one repository's snapshot wait this long for the next derived revision: the last one is written. */
const settleMs = 3000;

const pending = new Map<string, { files: Map<string, PageFile>; timer: NodeJS.Timeout }>();

/** Keeps `files` (a revision's page files, by blob id) as the repository's snapshot, shortly. */
export function snapshotPageFiles(repo: Repository, files: Map<string, PageFile>): void {
  // The main thread's own reads keep it: another thread (the search indexer's) is ended without
  // notice, and would write to the same temporary file.
  if (!isMainThread) return;
  const waiting = pending.get(repo.gitdir);
  if (waiting) {
    waiting.files = files;
    return;
  }
  const timer = setTimeout(() => {
    const latest = pending.get(repo.gitdir)!.files;
    pending.delete(repo.gitdir);
    void writeSnapshot(repo.gitdir, latest).catch(() => undefined); // a repository deleted or moved meanwhile: nothing to keep
  }, settleMs);
  timer.unref();
  pending.set(repo.gitdir, { files, timer });
}

async function writeSnapshot(gitdir: string, files: Map<string, PageFile>): Promise<void> {
  const lines: string[] = [JSON.stringify({ format })];
  // Serialized a few milliseconds' worth a turn: a 10,000-page space is not one long block.
  const pause = turnPauser();
  for (const [oid, file] of files) {
    const line = JSON.stringify([oid, file.meta, file.body], keepsItsValue);
    if (line !== undefined && !line.includes('"\u0000unkept"')) lines.push(line);
    await pause();
  }
  // Written beside and renamed over: a reader finds the old snapshot or the new one, whole.
  const temporary = `${snapshotFile(gitdir)}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, lines.join('\n'));
    await rename(temporary, snapshotFile(gitdir));
  } finally {
    await rm(temporary, { force: true });
  }
  // The repository removed or moved away meanwhile: no snapshot outlives it.
  if (!existsSync(gitdir)) await forgetPageFilesSnapshot(gitdir);
}

/** Writes the snapshots still waiting now (a clean shutdown: the next start finds them). */
export async function settlePageFilesSnapshots(): Promise<void> {
  const waiting = [...pending].map(([gitdir, { files, timer }]) => {
    clearTimeout(timer);
    return writeSnapshot(gitdir, files).catch(() => undefined);
  });
  pending.clear();
  await Promise.all(waiting);
}

/** Removes the repository's snapshot, and drops one waiting to be written: its repository is going. */
export async function forgetPageFilesSnapshot(gitdir: string): Promise<void> {
  const waiting = pending.get(gitdir);
  if (waiting) clearTimeout(waiting.timer);
  pending.delete(gitdir);
  await rm(snapshotFile(gitdir), { force: true });
}

/** Frontmatter values JSON can't carry as they are (`.inf`, `.nan`): their page is left out of the snapshot. */
function keepsItsValue(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? '\u0000unkept' : value;
}

/**
 * The page files of the repository's snapshot, by blob id; empty when there is none to use. Each
 * line is decoded on its own and each id copied: a string cut from the whole file's text (as
 * JSON.parse and split may cut) would keep all of it alive as long as one page file is cached.
 */
export async function snapshottedPageFiles(repo: Repository): Promise<Map<string, PageFile>> {
  const found = new Map<string, PageFile>();
  try {
    let first = true;
    for await (const line of snapshotLines(snapshotFile(repo.gitdir))) {
      const parsed: unknown = JSON.parse(line);
      if (first) {
        if ((parsed as { format?: number }).format !== format) return found;
        first = false;
        continue;
      }
      const [oid, meta, body] = parsed as [string, Record<string, unknown>, string];
      found.set(Buffer.from(oid, 'latin1').toString('latin1'), { meta, body });
    }
  } catch {
    return new Map(); // missing, torn or foreign: read from the objects instead
  }
  return found;
}

const chunkBytes = 256 * 1024;
/** Read buffers, reused: reading a whole 10,000-page space's snapshot (5 MB) at once left that much for the collector at every space switch. */
const spareChunks: Buffer[] = [];

/** The file's lines as text, read a chunk at a time into a reused buffer. */
async function* snapshotLines(file: string): AsyncGenerator<string> {
  const handle = await open(file, 'r');
  let chunk = spareChunks.pop() ?? Buffer.allocUnsafeSlow(chunkBytes);
  try {
    let kept = 0; // bytes of an unfinished line at the chunk's start
    for (;;) {
      if (kept === chunk.length) {
        // A line longer than the chunk: a larger buffer for this read only.
        const larger = Buffer.allocUnsafeSlow(chunk.length * 2);
        chunk.copy(larger, 0, 0, kept);
        if (chunk.length === chunkBytes) spareChunks.push(chunk);
        chunk = larger;
      }
      const { bytesRead } = await handle.read(chunk, kept, chunk.length - kept, null);
      const end = kept + bytesRead;
      let start = 0;
      for (let newline = chunk.indexOf(10, kept); newline !== -1 && newline < end; newline = chunk.indexOf(10, start)) {
        yield chunk.toString('utf8', start, newline);
        start = newline + 1;
      }
      if (bytesRead === 0) {
        if (start < end) yield chunk.toString('utf8', start, end);
        return;
      }
      chunk.copy(chunk, 0, start, end);
      kept = end - start;
    }
  } finally {
    if (chunk.length === chunkBytes) spareChunks.push(chunk);
    await handle.close();
  }
}
