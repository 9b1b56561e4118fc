import { Context } from '@temporalio/activity';
import { refreshURLSourcedSpecs } from '../../domain/openapi/index.js';
import type { ActivityDependencies } from './index.js';

/**
 * Starts the processing of every URL-sourced specification, heartbeating the id of each one
 * started: a retried attempt goes on after it instead of fetching every source again.
 */
export function refreshOpenAPISources(deps: ActivityDependencies) {
  return async () => {
    const context = Context.current();
    const from = typeof context.info.heartbeatDetails === 'string' ? context.info.heartbeatDetails : undefined;
    return { started: await refreshURLSourcedSpecs(deps, { from, progress: (id) => context.heartbeat(id) }) };
  };
}
