import { Context } from '@temporalio/activity';
import { refreshURLSourcedSpecs } from '../../domain/openapi/index.js';
import type { ActivityDependencies } from './index.js';

/** Starts the processing of every URL-sourced specification, heartbeating between them. */
export function refreshOpenAPISources(deps: ActivityDependencies) {
  return async () => {
    const context = Context.current();
    return { started: await refreshURLSourcedSpecs(deps, () => context.heartbeat()) };
  };
}
