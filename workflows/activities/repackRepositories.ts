import { Context } from '@temporalio/activity';
import type { ContentDeps } from '../../domain/common/deps.js';
import { repackSpacesOverThreshold } from '../../domain/git/index.js';
import type { RepositoryMaintenanceInput } from '../repositoryMaintenance.workflow.js';

/** Repacks the repositories past the threshold, heartbeating between spaces (a repack can take a while). */
export function repackRepositories(deps: ContentDeps) {
  return async (input: RepositoryMaintenanceInput) => {
    const context = Context.current();
    const repacked = await repackSpacesOverThreshold(deps, input.looseObjects, () => context.heartbeat());
    return { repacked: repacked.length };
  };
}
