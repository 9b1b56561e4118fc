import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

/** Sent to `conversations:<organization>` by every post that stored something new. */
export const conversationsIngested = defineSignal('conversationsIngested');

const { processConversations, consolidateOrganizationConversations } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

export interface ConversationProcessingInput {
  organizationId: string;
  /** Quiet time after which the organization's clusters are consolidated; 0 (or absent, from jobs started before it existed) leaves it to the schedule. */
  consolidateWhenQuietMs?: number;
  /** Whether this run of the job processed something not consolidated yet (carried across continue-as-new). */
  processed?: boolean;
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
 * signalled by each post): processes pending conversations in batches until none is left. When
 * its posts go quiet for `consolidateWhenQuietMs` it clusters the organization's issues again
 * from scratch, so a burst of posts is consolidated seconds after it ends rather than at the next
 * scheduled run; then it ends after `idle` without posts. The work is in the database, so a
 * batch lost with its worker is simply done again.
 */
export async function conversationProcessing(input: ConversationProcessingInput): Promise<void> {
  const { organizationId, consolidateWhenQuietMs = 0 } = input;
  let pending = true;
  let processed = input.processed ?? false;
  setHandler(conversationsIngested, () => {
    pending = true;
  });
  for (let batch = 0; batch < batchesPerRun; batch += 1) {
    if (!pending && processed && consolidateWhenQuietMs > 0 && !(await condition(() => pending, consolidateWhenQuietMs))) {
      await consolidateOrganizationConversations({ organizationId });
      processed = false;
    }
    if (!pending && !(await condition(() => pending, idle))) return;
    pending = false;
    const result = await processConversations({ organizationId });
    processed ||= result.processed > 0;
    if (result.remaining) pending = true;
  }
  await continueAsNew<typeof conversationProcessing>({ organizationId, consolidateWhenQuietMs, processed });
}
