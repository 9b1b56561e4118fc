/** Bundling as a task of the worker pool (see bundleOpenAPIInPool): errors come back as values. */
import type { OpenAPIErrorCode, OpenAPIProblem, OpenAPISource } from '../../storage/openapi.js';
import { bundleOpenAPI, OpenAPIProcessingError, type BundledSpec } from './openapiBundle.js';
import type { OutboundFetchOptions } from '../common/outboundFetch.js';

export type BundleResult = { ok: true; value: BundledSpec } | { ok: false; code: OpenAPIErrorCode; problems: OpenAPIProblem[]; transient: boolean } | { ok: false; message: string };

/** The fetches' settings come with the task: the pool's threads are not configured, the process is. */
export async function bundle({ source, fetch }: { source: OpenAPISource; fetch: OutboundFetchOptions }): Promise<BundleResult> {
  try {
    return { ok: true, value: await bundleOpenAPI(source, fetch) };
  } catch (error) {
    if (error instanceof OpenAPIProcessingError) return { ok: false, code: error.code, problems: error.problems, transient: error.transient };
    return { ok: false, message: (error as Error).message };
  }
}
