import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { ImportJobInput } from '../domain/common/jobs.js';

// The work reports its own failure on the run (a source that can't be read is no reason to retry);
// a worker that dies is, within the heartbeat timeout.
const { runImport } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

/** One import run (job id `import:<run>`): its source's pages written into its target. */
export async function contentImport(input: ImportJobInput): Promise<string> {
  return runImport(input);
}
