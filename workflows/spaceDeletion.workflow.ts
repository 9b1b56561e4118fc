import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

export interface SpaceDeletionInput {
  spaceId: string;
  /** When the space went into the bin; the purge is due `retentionMs` later. */
  deletedAt: string;
  retentionMs: number;
}

const { purgeDeletedSpace } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Waits out a deleted space's retention, then purges it unless it was restored meanwhile. */
export async function spaceDeletion(input: SpaceDeletionInput): Promise<string> {
  // The deadline is absolute, so a job restarted for the same deletion doesn't wait twice.
  const remainingMs = Date.parse(input.deletedAt) + input.retentionMs - Date.now();
  if (remainingMs > 0) await sleep(remainingMs);
  return purgeDeletedSpace({ spaceId: input.spaceId, deletedAt: input.deletedAt });
}
