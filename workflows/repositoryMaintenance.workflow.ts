import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

const { repackRepositories } = proxyActivities<Activities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '30 seconds', maximumInterval: '10 minutes', maximumAttempts: 3 },
});

export interface RepositoryMaintenanceInput {
  /** A repository is repacked once it holds this many loose objects. */
  looseObjects: number;
}

/** Run by the schedule `repository-maintenance:<task queue>`: repacks every space repository past the threshold. */
export async function repositoryMaintenance(input: RepositoryMaintenanceInput): Promise<{ repacked: number }> {
  return repackRepositories(input);
}
