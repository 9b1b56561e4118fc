import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

const { refreshOpenAPISources } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '30 seconds', maximumInterval: '10 minutes', maximumAttempts: 3 },
});

/** Run by the schedule `openapi-refresh:<task queue>`: every specification with a source URL is processed again. */
export async function openapiRefresh(): Promise<{ started: number }> {
  return refreshOpenAPISources();
}
