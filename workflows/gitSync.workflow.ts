import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { GitSyncJob } from '../domain/git/index.js';

const { runGitSync } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '10 seconds', maximumInterval: '2 minutes', maximumAttempts: 3 },
});

/** One Git Sync import or export of a space (`git-sync:<spaceId>:<direction>:<id>`): refusals are its result, not failures. */
export async function gitSync(job: GitSyncJob): Promise<{ state: 'success' | 'failure'; commit?: string; message?: string }> {
  return runGitSync(job);
}
