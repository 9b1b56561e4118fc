import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import { spaceRestored } from './signals.js';

import type { SpaceDeletionInput } from '../domain/common/ports.js';

const { purgeDeletedSpace } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // The activity heartbeats while it works: a worker that dies mid-purge is noticed in seconds, not minutes.
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Waits out a deleted space's retention, then purges it unless it was restored meanwhile. */
export async function spaceDeletion(input: SpaceDeletionInput): Promise<Awaited<ReturnType<Activities['purgeDeletedSpace']>>> {
  let restored = false;
  // Only a restore of this deletion ends this job: a late word about an earlier one is ignored.
  setHandler(spaceRestored, (deletedAt) => {
    if (deletedAt === input.deletedAt) restored = true;
  });
  // The deadline is absolute, so a job restarted for the same deletion doesn't wait twice.
  const remainingMs = Date.parse(input.deletedAt) + input.retentionMs - Date.now();
  if (remainingMs > 0) await condition(() => restored, remainingMs);
  if (restored) return 'restored';
  return purgeDeletedSpace({ spaceId: input.spaceId, deletedAt: input.deletedAt });
}
