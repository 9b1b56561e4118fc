import type { GlossaryEntryRecord } from '../../domain/translations/index.js';
import type { Urls } from '../urls.js';

/** `GlossaryEntry`. */
export function presentGlossaryEntry(entry: GlossaryEntryRecord, urls: Urls) {
  return {
    object: 'glossary-entry' as const,
    id: entry.id,
    translations: entry.translations,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    urls: { location: urls.api(`/orgs/${entry.organizationId}/translations-glossary/${entry.id}`) },
  };
}
