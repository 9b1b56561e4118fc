import { ApplicationFailure } from '@temporalio/activity';
import { DomainError } from '../../domain/common/errors.js';
import { configuredTranslator, translateRun, type TranslationRunInput, TranslatorError } from '../../domain/translations/index.js';
import type { ContentDeps } from '../../domain/common/deps.js';
import type { Database } from '../../storage/db.js';
import { failTranslationRun } from '../../storage/translations.js';

/** A translation run; transient translator failures are retried, permanent ones fail the run at once. */
export function runTranslation(deps: ContentDeps) {
  return async (input: TranslationRunInput) => {
    try {
      return await translateRun(deps, input, configuredTranslator());
    } catch (error) {
      if (error instanceof TranslatorError) {
        if (error.transient) throw ApplicationFailure.retryable(error.message, 'translator');
        throw ApplicationFailure.nonRetryable(error.message, 'translator');
      }
      if (error instanceof DomainError) throw ApplicationFailure.nonRetryable(error.message, error.code);
      throw error;
    }
  };
}

/** Ends a run that failed for good: nothing under way any more, the reason kept. */
export function failTranslation(deps: { db: Database }) {
  return async (input: TranslationRunInput & { reason: string }) => failTranslationRun(deps.db, input.translationId, input.run, input.reason);
}
