import { ActivityFailure, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { OpenAPIJobInput } from './activities/processOpenAPISpec.js';

/** Sent to `openapi:<orgId>:<slug>` when the source changed while the job runs: one more round. */
export const openAPISourceChanged = defineSignal('openAPISourceChanged');

const { processOpenAPISpec } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '5 seconds',
  // Transient failures (timeouts, network, 5xx) are retried with backoff; permanent ones (a 4xx,
  // a refused address, a parse or validation error) are non-retryable failures.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
});
const { finishFailedOpenAPISpec } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { initialInterval: '1 second', maximumInterval: '10 seconds' } });

/** Processes a specification's source until what was processed is its latest source. */
export async function openapiProcessing(input: OpenAPIJobInput): Promise<string> {
  let changed = false;
  setHandler(openAPISourceChanged, () => {
    changed = true;
  });
  let last = 'gone';
  for (let round = 0; round < 20; round++) {
    changed = false;
    let again = false;
    try {
      const result = await processOpenAPISpec(input);
      last = result.outcome;
      // Gone: deleted meanwhile; a spec made again under the slug has signalled (`changed`).
      again = result.outcome !== 'gone' && result.again;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      // The failure is on the spec already (recorded by the activity); the round is over.
      last = 'failed';
      await finishFailedOpenAPISpec(input);
    }
    if (!changed && !again) return last;
  }
  // A source changed over and over: a fresh run (and history) takes the latest one from here.
  return continueAsNew<typeof openapiProcessing>(input);
}
