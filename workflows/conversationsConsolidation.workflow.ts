import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

const { consolidateConversations } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * Run by the schedule `conversations-consolidation:<task queue>`: processes conversations whose
 * job could not be started, then clusters again every organization whose issues changed.
 */
export async function conversationsConsolidation(): Promise<{ organizations: number }> {
  return consolidateConversations();
}
