import { runInPool, siblingModule, workerTaskLimitMs, WorkTooCostlyError } from '../../engine/index.js';
import type { OpenAPISource } from '../../storage/openapi.js';
import { integrations } from '../common/integrations.js';
import { OpenAPIProcessingError, type BundledSpec } from './openapiBundle.js';
import type { BundleResult } from './openapiTasks.js';

const tasks = siblingModule(import.meta.url, 'openapiTasks');
/** What a bundle may spend waiting on fetches of the source and its `$ref`s, beside the pool's limit for parsing. */
const fetchAllowanceMs = 120_000;

/**
 * bundleOpenAPI in the worker pool: parsing and validating a large or hostile specification never
 * holds the event loop of the process the job runs in (the API's, with `npm start`). Past its time
 * limit it is a PARSE_ERROR saying so.
 */
export async function bundleOpenAPIInPool(source: OpenAPISource): Promise<BundledSpec> {
  let result: BundleResult;
  try {
    const { allowPrivateFetch, fetchTimeoutMs } = integrations();
    result = await runInPool<BundleResult>(tasks, 'bundle', { source, fetch: { allowPrivate: allowPrivateFetch, totalTimeoutMs: fetchTimeoutMs } }, 'The specification', {
      limitMs: workerTaskLimitMs() + fetchAllowanceMs,
    });
  } catch (error) {
    if (error instanceof WorkTooCostlyError) throw new OpenAPIProcessingError('PARSE_ERROR', [{ message: error.message, code: 'too_slow' }], false);
    throw error;
  }
  if (result.ok) return result.value;
  if ('code' in result) throw new OpenAPIProcessingError(result.code, result.problems, result.transient);
  throw new Error(result.message);
}
