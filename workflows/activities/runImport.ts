import { Context } from '@temporalio/activity';
import type { ContentDeps } from '../../domain/common/deps.js';
import type { ImportJobInput } from '../../domain/common/jobs.js';
import { performImport } from '../../domain/imports/index.js';

/** Does an import run, heartbeating between the pages it fetches and the commits it writes. */
export function runImport(deps: ContentDeps) {
  return (input: ImportJobInput) => performImport(deps, input, () => Context.current().heartbeat());
}
