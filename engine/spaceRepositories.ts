import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { RepositoryElsewhereError } from './errors/index.js';
import path from 'node:path';
import { forgetRepositoryLock, withRepositoryLock } from './lock.js';
import { forgetPageFilesSnapshot } from './revision/pageFilesSnapshot.js';
import { freezeRepository, thawRepository } from './internal/frozenRepository.js';
import { closeRepository, createRepository, openRepository, type Repository } from './repository.js';
import { bundleRepository, handOverRepository, receiveBundle, removeMovedAside, type RefValues } from './internal/repositoryTransfer.js';

/** Where a space's bare repository lives under the data directory. */
export function spaceGitdir(root: string, spaceId: string): string {
  // On every request: an id of plain characters is appended to the folder, joined once per root.
  if (!plainId.test(spaceId)) return path.join(root, 'spaces', `${spaceId}.git`);
  let folder = spacesFolders.get(root);
  if (folder === undefined) spacesFolders.set(root, (folder = path.join(root, 'spaces')));
  return `${folder}/${spaceId}.git`;
}

const plainId = /^[A-Za-z0-9_-]+$/;
const spacesFolders = new Map<string, string>();

export async function createSpaceRepository(root: string, spaceId: string): Promise<Repository> {
  await fs.mkdir(path.join(root, 'spaces'), { recursive: true });
  return createRepository(spaceGitdir(root, spaceId));
}

export const openSpaceRepository = (root: string, spaceId: string): Repository => openRepository(spaceGitdir(root, spaceId));

/**
 * A new repository with the same history, copied while no one writes the source. With `branches`,
 * the copy keeps only those branches (loose and packed); the objects stay, and the next `git gc`
 * drops what no branch reaches.
 */
export async function copySpaceRepository(root: string, fromSpaceId: string, toSpaceId: string, options: { branches?: string[] } = {}): Promise<Repository> {
  const from = spaceGitdir(root, fromSpaceId);
  const to = spaceGitdir(root, toSpaceId);
  await withRepositoryLock(from, () => fs.cp(from, to, { recursive: true, errorOnExist: true, force: false }));
  if (options.branches) await keepOnlyBranches(to, new Set(options.branches.map((branch) => `refs/heads/${branch}`)));
  return openRepository(to);
}

async function keepOnlyBranches(gitdir: string, kept: Set<string>): Promise<void> {
  const heads = path.join(gitdir, 'refs', 'heads');
  for (const entry of await fs.readdir(heads, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const ref = path.relative(gitdir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!kept.has(ref)) await fs.rm(path.join(gitdir, ref));
  }
  const packed = path.join(gitdir, 'packed-refs');
  const lines = await fs.readFile(packed, 'utf8').then(
    (text) => text.split('\n'),
    () => undefined,
  );
  if (!lines) return;
  const out: string[] = [];
  let dropping = false;
  for (const line of lines) {
    // A `^<oid>` line peels the tag above it: it goes with that line.
    if (line.startsWith('^')) {
      if (!dropping) out.push(line);
      continue;
    }
    const ref = line.split(' ')[1];
    dropping = ref !== undefined && ref.startsWith('refs/heads/') && !kept.has(ref);
    if (!dropping) out.push(line);
  }
  await fs.writeFile(packed, out.join('\n'));
}

export async function removeSpaceRepository(root: string, spaceId: string): Promise<void> {
  const gitdir = spaceGitdir(root, spaceId);
  await withRepositoryLock(gitdir, () => fs.rm(gitdir, { recursive: true, force: true }), { absentOk: true });
  await forgetRepositoryLock(gitdir);
  await forgetPageFilesSnapshot(gitdir);
  closeRepository(gitdir);
}

/**
 * The space repositories of one data folder, as the domain's `Repositories` port expects them
 * (declared in domain/common/ports.ts; the engine doesn't import it, the shapes match), on the
 * storage `storage`. With `onlyPresent` (a storage node), opening a space whose repository isn't
 * in the folder throws RepositoryElsewhereError instead of reading an empty one: another node
 * keeps it.
 */
export function localSpaceRepositories(root: string, options: { storage?: string; onlyPresent?: boolean } = {}) {
  // Looked for at every open (a stat): a space moved to another storage leaves this folder while
  // other processes of this node (API, worker) may still be asked for it.
  const open = (spaceId: string) => {
    if (options.onlyPresent && !existsSync(spaceGitdir(root, spaceId))) throw new RepositoryElsewhereError(spaceId);
    return openSpaceRepository(root, spaceId);
  };
  return {
    storage: options.storage ?? 'local',
    open,
    create: (spaceId: string) => createSpaceRepository(root, spaceId),
    copy: (fromSpaceId: string, toSpaceId: string, copyOptions?: { branches?: string[] }) => copySpaceRepository(root, fromSpaceId, toSpaceId, copyOptions),
    remove: (spaceId: string) => removeSpaceRepository(root, spaceId),
    freeze: (spaceId: string) => freezeRepository(open(spaceId).gitdir),
    thaw: (spaceId: string) => thawRepository(open(spaceId).gitdir),
    bundle: (spaceId: string) => bundleRepository(open(spaceId).gitdir),
    receive: (spaceId: string, bundleFile: string) => receiveBundle(spaceGitdir(root, spaceId), bundleFile),
    handOver: (spaceId: string, decide: (refs: RefValues) => Promise<boolean>) => handOverRepository(open(spaceId).gitdir, decide),
    removeHandedOver: (spaceId: string) => removeMovedAside(spaceGitdir(root, spaceId)),
  };
}
