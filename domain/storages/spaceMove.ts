import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { findSpace, placeSpaceOnStorage } from '../../storage/spaces.js';
import { findStorage } from '../../storage/storages.js';
import type { ContentDeps } from '../common/deps.js';
import { log } from '../common/log.js';
import { recordPrimaryHead } from '../spaces/index.js';
import { nodeRoutingSecret, routedHeader } from './storageNode.js';

/**
 * Moving a space from one storage to another, as the steps of a Temporal workflow each run by the
 * worker of the storage named (workflows/spaceMove.workflow.ts): freeze on the source (reads go
 * on, writes answer 503), copy onto the target (a bundle fetched from the source node, checked
 * with `git fsck --full`), switch under the source's repository lock once the copy's refs are
 * the source's, thaw on the target, and later remove what the source set aside.
 */
export interface SpaceMove {
  spaceId: string;
  from: string;
  to: string;
}

/** Where a move stands when a step is run again (a retried activity): it may have happened already. */
async function placement(deps: Pick<ContentDeps, 'db'>, move: SpaceMove): Promise<'source' | 'target'> {
  const space = await findSpace(deps.db, move.spaceId, { includeDeleted: true });
  if (!space) throw new SpaceMoveError(`space ${move.spaceId} doesn't exist`);
  if (space.storageId === move.to) return 'target';
  if (space.storageId !== move.from) throw new SpaceMoveError(`space ${move.spaceId} is on storage ${space.storageId}, not ${move.from}`);
  return 'source';
}

/** A move that can't go on whatever is retried (the workflow doesn't retry it). */
export class SpaceMoveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpaceMoveError'; // the failure's type in Temporal: not retried
  }
}

/** On the source: no write lands from now on. */
export async function freezeSpaceForMove(deps: Pick<ContentDeps, 'db' | 'repositories'>, move: SpaceMove): Promise<void> {
  if ((await placement(deps, move)) === 'target') return;
  await deps.repositories.freeze(move.spaceId);
}

/** The internal endpoint's answer on the source node: the frozen repository as a bundle. */
export function spaceBundle(deps: Pick<ContentDeps, 'repositories'>, spaceId: string): Readable {
  return deps.repositories.bundle(spaceId);
}

/** On the target: the repository copied from the source node (fetched, checked, frozen); its refs. */
export async function copySpaceForMove(deps: Pick<ContentDeps, 'db' | 'repositories' | 'dataDir'>, move: SpaceMove): Promise<Record<string, string>> {
  const source = await findStorage(deps.db, move.from);
  if (!source?.nodeUrl) throw new Error(`storage ${move.from} has no node serving it right now`);
  const response = await fetch(new URL(`/internal/spaces/${encodeURIComponent(move.spaceId)}/bundle`, source.nodeUrl), {
    headers: { [routedHeader]: await nodeRoutingSecret(deps) },
  });
  if (!response.ok || !response.body) throw new Error(`the node of storage ${move.from} answered ${response.status} for the bundle of space ${move.spaceId}: ${await response.text()}`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-move-'));
  try {
    const bundleFile = path.join(scratch, 'space.bundle');
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(bundleFile));
    return await deps.repositories.receive(move.spaceId, bundleFile);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * On the source, under its repository lock: if its refs are still those copied, the space is
 * placed on the target (one UPDATE) and the source's repository set aside. 'changed' when they
 * differ (copy again).
 */
export async function switchSpaceStorage(deps: Pick<ContentDeps, 'db' | 'repositories'>, move: SpaceMove, copied: Record<string, string>): Promise<'switched' | 'changed'> {
  if ((await placement(deps, move)) === 'target') return 'switched';
  const switched = await deps.repositories.handOver(move.spaceId, async (refs) => {
    if (!sameRefs(refs, copied)) return false;
    if (!(await deps.db.transaction((tx) => placeSpaceOnStorage(tx, move.spaceId, move.from, move.to)))) throw new SpaceMoveError(`space ${move.spaceId} left storage ${move.from} during its move`);
    return true;
  });
  return switched ? 'switched' : 'changed';
}

const sameRefs = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([ref, oid]) => b[ref] === oid);

/** On the target, once the space is placed there: writes land again; its head recorded from here. */
export async function thawMovedSpace(deps: Pick<ContentDeps, 'db' | 'repositories'>, move: SpaceMove): Promise<void> {
  await deps.repositories.thaw(move.spaceId);
  await recordPrimaryHead(deps, move.spaceId);
  log.info('space moved', { ...move });
}

/** On the source, when the move failed before its switch: the space takes writes there again. */
export async function abandonSpaceMove(deps: Pick<ContentDeps, 'db' | 'repositories'>, move: SpaceMove, side: 'source' | 'target'): Promise<void> {
  if ((await placement(deps, move)) === 'target') return; // it switched after all: nothing to undo
  if (side === 'source') await deps.repositories.thaw(move.spaceId);
  else await deps.repositories.remove(move.spaceId);
}

/** On the source, a while after the switch (requests routed before it have been answered): the old copy goes. */
export function releaseMovedSpace(deps: Pick<ContentDeps, 'repositories'>, move: SpaceMove): void {
  deps.repositories.removeHandedOver(move.spaceId);
}
