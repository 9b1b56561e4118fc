import type { MemberRole } from '../../storage/members.js';
import type { TranslationRecord } from '../../storage/translations.js';
import { translationActions } from '../policies/actions.js';
import { atLeast } from '../policies/roles.js';
import type { Urls } from '../urls.js';

const seconds = (ms: number) => Math.round(ms / 1000);

export function presentTranslation(translation: TranslationRecord, role: MemberRole | null, urls: Urls) {
  return {
    object: 'translation' as const,
    id: translation.id,
    status: translation.status,
    source: { space: translation.sourceSpaceId, language: translation.sourceLanguage },
    language: translation.language,
    // Upstream's JSONDocument has `data`; documents sent without it get an empty one.
    instructions: { object: 'document', data: {}, ...translation.instructions },
    ...(translation.targetSpaceId && translation.latestRevision ? { result: { space: translation.targetSpaceId, revision: translation.latestRevision } } : {}),
    createdAt: translation.createdAt,
    updatedAt: translation.updatedAt,
    stats: {
      runs: translation.completedRuns,
      totalWords: translation.totalWords,
      totalPages: translation.totalPages,
      totalDuration: seconds(translation.totalDurationMs),
      latestRunDuration: seconds(translation.latestRunDurationMs),
      latestPages: translation.latestPages,
      latestWords: translation.latestWords,
    },
    permissions: { view: atLeast(role, translationActions.view), edit: atLeast(role, translationActions.edit) },
    urls: { location: urls.api(`/orgs/${translation.organizationId}/translations/${translation.id}`) },
  };
}
