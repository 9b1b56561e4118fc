import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

/** Sent to `conversations:<organization>` by every post that stored something new. */
export const conversationsIngested = defineSignal('conversationsIngested');

const { processConversations } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

export interface ConversationProcessingInput {
  organizationId: string;
}

/**
 * How long the job waits for more posts before it ends: a steady stream keeps one job busy, and a
 * post arriving as the job would end doesn't fail its completion (and the worker's cached copy).
 */
const idle = '10 seconds';
/** Batches before the job continues as new, so its history stays short. */
const batchesPerRun = 200;

/**
 * The organization's conversation processing (job id `conversations:<organization>`, started or
 * signalled by each post): processes pending conversations in batches until none is left, and
 * ends after `idle` without posts. The work is in the database, so a batch lost with its worker
 * is simply done again.
 */
export async function conversationProcessing(input: ConversationProcessingInput): Promise<void> {
  let pending = true;
  setHandler(conversationsIngested, () => {
    pending = true;
  });
  for (let batch = 0; batch < batchesPerRun; batch += 1) {
    if (!pending && !(await condition(() => pending, idle))) return;
    pending = false;
    const { remaining } = await processConversations(input);
    if (remaining) pending = true;
  }
  await continueAsNew<typeof conversationProcessing>(input);
}
