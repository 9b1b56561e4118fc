import { ApplicationFailure } from '@temporalio/activity';
import { bundleOpenAPIInPool, OpenAPIProcessingError } from '../../domain/openapi/index.js';
import type { Database } from '../../storage/db.js';
import { findOpenAPISpec, recordOpenAPIFailure, setOpenAPIProcessingState, storeOpenAPIVersion } from '../../storage/openapi.js';

export interface OpenAPIJobInput {
  organizationId: string;
  slug: string;
}

export type OpenAPIRoundOutcome = { outcome: 'gone' } | { outcome: 'stored' | 'unchanged'; versionId: string; again: boolean };

/**
 * One round of processing: takes the spec's current source, marks it `progress`, fetches, parses,
 * validates and bundles it, and stores a version (none when the content is unchanged). A failure
 * is recorded on the spec at once; a transient one (timeout, network, 5xx) is thrown for the
 * activity's retries, a permanent one (404, parse error) as non-retryable. `again`: the source
 * changed meanwhile and needs another round.
 */
export function processOpenAPISpec(deps: { db: Database }) {
  return async ({ organizationId, slug }: OpenAPIJobInput): Promise<OpenAPIRoundOutcome> => {
    const spec = await findOpenAPISpec(deps.db, organizationId, slug);
    if (!spec) return { outcome: 'gone' };
    await setOpenAPIProcessingState(deps.db, spec.id, 'progress');
    const source = spec.sourceUrl !== null ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' };
    try {
      const bundled = await bundleOpenAPIInPool(source);
      const stored = await deps.db.transaction((tx) =>
        storeOpenAPIVersion(tx, { specId: spec.id, generation: spec.generation, digest: bundled.digest, sourceUrl: spec.sourceUrl, filesystem: JSON.stringify(bundled.filesystem), raw: bundled.raw }),
      );
      if (!stored) return { outcome: 'gone' };
      return { outcome: stored.created ? 'stored' : 'unchanged', versionId: stored.versionId, again: await changedSince(deps.db, spec) };
    } catch (error) {
      if (!(error instanceof OpenAPIProcessingError)) throw error;
      await recordOpenAPIFailure(deps.db, spec.id, error.code, error.problems);
      if (error.transient) throw ApplicationFailure.retryable(error.message, error.code);
      throw ApplicationFailure.nonRetryable(error.message, error.code);
    }
  };
}

/** Ends a round that failed for good (retries spent included): the spec is `complete`, with its errors. */
export function finishFailedOpenAPISpec(deps: { db: Database }) {
  return async ({ organizationId, slug }: OpenAPIJobInput): Promise<void> => {
    const spec = await findOpenAPISpec(deps.db, organizationId, slug);
    if (spec) await setOpenAPIProcessingState(deps.db, spec.id, 'complete');
  };
}

async function changedSince(db: Database, processed: { organizationId: string; slug: string; generation: number; id: string }): Promise<boolean> {
  const now = await findOpenAPISpec(db, processed.organizationId, processed.slug);
  return now !== undefined && (now.id !== processed.id || now.generation !== processed.generation);
}
