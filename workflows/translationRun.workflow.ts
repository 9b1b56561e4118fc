import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { TranslationRunInput, TranslationRunOutcome } from '../domain/translations/index.js';

const { runTranslation } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 seconds',
  // A busy or unreachable translator (429, 5xx, timeouts) is retried with backoff; a refusal (4xx,
  // a malformed answer, the source gone) fails the run at once.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 6 },
});
const { failTranslation } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { initialInterval: '1 second', maximumInterval: '10 seconds' } });

/** Run `run` of a translation (job id `translation:<id>:<run>`): translate, commit once, record. */
export async function translationRun(input: TranslationRunInput): Promise<TranslationRunOutcome | 'failed'> {
  try {
    return await runTranslation(input);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    await failTranslation({ ...input, reason: error.cause?.message ?? error.message });
    return 'failed';
  }
}
