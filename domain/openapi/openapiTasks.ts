/** Bundling as a task of the worker pool (see bundleOpenAPIInPool): errors come back as values. */
import type { OpenAPIErrorCode, OpenAPIProblem, OpenAPISource } from '../../storage/openapi.js';
import { bundleOpenAPI, OpenAPIProcessingError, type BundledSpec } from './openapiBundle.js';

export type BundleResult = { ok: true; value: BundledSpec } | { ok: false; code: OpenAPIErrorCode; problems: OpenAPIProblem[]; transient: boolean } | { ok: false; message: string };

export async function bundle(source: OpenAPISource): Promise<BundleResult> {
  try {
    return { ok: true, value: await bundleOpenAPI(source) };
  } catch (error) {
    if (error instanceof OpenAPIProcessingError) return { ok: false, code: error.code, problems: error.problems, transient: error.transient };
    return { ok: false, message: (error as Error).message };
  }
}
