import { ApplicationFailure, proxyActivities, sleep, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { SpaceMove } from '../domain/storages/index.js';

export interface SpaceMoveJob extends SpaceMove {
  /** The task queues of the source and target storages' workers. */
  sourceQueue: string;
  targetQueue: string;
  /** How long the source keeps its old copy after the switch (requests routed before it are answered from it). */
  releaseAfterMs: number;
}

const stepOptions: ActivityOptions = {
  startToCloseTimeout: '1 hour',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 6, nonRetryableErrorTypes: ['SpaceMoveError'] },
};

/** How many times the copy is made again when the source's refs changed under it (an internal ref of a write that then failed). */
const copies = 3;

/**
 * Moves a space's repository to another storage: frozen on the source (it reads, and writes answer
 * 503), copied onto the target and checked, switched once the copy's refs are the source's, thawed
 * on the target; the source's copy removed later. A failure before the switch puts everything back.
 */
export async function spaceMove(job: SpaceMoveJob): Promise<string> {
  const source = proxyActivities<Activities>({ ...stepOptions, taskQueue: job.sourceQueue });
  const target = proxyActivities<Activities>({ ...stepOptions, taskQueue: job.targetQueue, heartbeatTimeout: '10 seconds' });
  const move: SpaceMove = { spaceId: job.spaceId, from: job.from, to: job.to };
  await source.freezeSpaceForMove(move);
  try {
    let switched = false;
    for (let copy = 0; copy < copies && !switched; copy += 1) {
      const refs = await target.copySpaceForMove(move);
      switched = (await source.switchSpaceStorage(move, refs)) === 'switched';
    }
    if (!switched) throw ApplicationFailure.nonRetryable(`the refs of space ${move.spaceId} kept changing on ${move.from}`, 'SpaceMoveError');
  } catch (error) {
    await target.abandonSpaceMove(move, 'target');
    await source.abandonSpaceMove(move, 'source');
    throw error;
  }
  await target.thawMovedSpace(move);
  await sleep(job.releaseAfterMs);
  await source.releaseMovedSpace(move);
  return `space ${move.spaceId} moved from storage ${move.from} to ${move.to}`;
}
