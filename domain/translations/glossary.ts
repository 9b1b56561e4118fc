import type { Database, Queryable } from '../../storage/db.js';
import {
  countGlossaryEntries,
  deleteGlossaryEntry,
  findGlossaryEntry,
  insertGlossaryEntry,
  listGlossaryEntries,
  replaceGlossaryEntry,
  type GlossaryEntryRecord,
  type GlossaryTranslations,
} from '../../storage/glossary.js';
import { paginateArray, type Page, type PageRequest } from '../../storage/pagination.js';
import { invalidInput, missing } from '../common/errors.js';

export type { GlossaryEntryRecord, GlossaryTranslations };

// An organization's translation glossary (docs/jobs.md, "Translations"): the words its
// translations must render one way. A run puts each term of the source language that the glossary
// also gives in the target language aside before the translator sees the text, and writes the
// glossary's own term in its place after.

/** Most entries an organization's glossary holds. */
export const glossaryLimit = 1000;

export type GlossaryOperation = { type: 'insert'; translations: GlossaryTranslations } | { type: 'update'; id: string; translations: GlossaryTranslations } | { type: 'delete'; id: string };

/** Applies the operations in order, all or none: an update or delete of an entry the organization lacks refuses them all. */
export function updateGlossary(db: Database, organizationId: string, operations: GlossaryOperation[]): Promise<void> {
  return db.transaction(async (tx) => {
    for (const [index, operation] of operations.entries()) {
      const done =
        operation.type === 'insert'
          ? Boolean(await insertGlossaryEntry(tx, organizationId, operation.translations))
          : operation.type === 'update'
            ? await replaceGlossaryEntry(tx, organizationId, operation.id, operation.translations)
            : await deleteGlossaryEntry(tx, organizationId, operation.id);
      if (!done) throw invalidInput(`"operations[${index}]": the glossary has no entry "${(operation as { id: string }).id}"`);
    }
    const count = await countGlossaryEntries(tx, organizationId);
    if (count > glossaryLimit) throw invalidInput(`A glossary holds ${glossaryLimit} entries at most; these operations would make it ${count}`);
  });
}

/** The glossary a page at a time: by when each entry was added, or alphabetically by its term in `orderBy` (entries without one last). */
export async function readGlossary(db: Queryable, organizationId: string, page: PageRequest, orderBy?: string): Promise<Page<GlossaryEntryRecord>> {
  const entries = await listGlossaryEntries(db, organizationId);
  const key = (entry: GlossaryEntryRecord): [string, string] => (orderBy ? [entry.translations[orderBy]?.toLocaleLowerCase() ?? '\uffff', entry.id] : [entry.createdAt, entry.id]);
  return paginateArray(entries, key, `glossary:${organizationId}:${orderBy ?? ''}`, { ...page, order: 'asc' });
}

export async function readGlossaryEntry(db: Queryable, organizationId: string, id: string): Promise<GlossaryEntryRecord> {
  const entry = await findGlossaryEntry(db, organizationId, id);
  if (!entry) throw missing(`Glossary entry "${id}" not found`);
  return entry;
}

/** A term to render one way: as written in the source language, and as the target language has it. */
export interface GlossaryTerm {
  source: string;
  target: string;
}

/** The organization's terms from one language to another: the entries giving both, longest source first (so "change request" wins over "change"). */
export async function glossaryTerms(db: Queryable, organizationId: string, from: string, to: string): Promise<GlossaryTerm[]> {
  const terms = (await listGlossaryEntries(db, organizationId)).flatMap((entry) => {
    const source = entry.translations[from]?.trim();
    const target = entry.translations[to]?.trim();
    return source && target ? [{ source, target }] : [];
  });
  return terms.sort((a, b) => b.source.length - a.source.length);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The texts (HTML units) with each glossary term of their prose wrapped in `<g id="n">`, a tag
 * every translator passes through as it passes the units' own: whole words, any case, never
 * inside a tag or an entity.
 */
export function protectTerms(texts: string[], terms: GlossaryTerm[]): string[] {
  if (terms.length === 0) return texts;
  const index = new Map(terms.map((term, n) => [escapeHtml(term.source).toLocaleLowerCase(), n]));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${[...index.keys()].map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  return texts.map((text) =>
    text
      .split(/(<[^>]*>|&[#a-zA-Z0-9]+;)/)
      .map((part, n) => (n % 2 ? part : part.replace(pattern, (found) => `<g id="${index.get(found.toLocaleLowerCase())}">${found}</g>`)))
      .join(''),
  );
}

/** The translated texts with each `<g id="n">…</g>` replaced by the glossary's term in the target language; a stray half of one is dropped. */
export function restoreTerms(texts: string[], terms: GlossaryTerm[]): string[] {
  if (terms.length === 0) return texts;
  return texts.map((text) => text.replace(/<g id="(\d+)">[\s\S]*?<\/g>/g, (whole, n: string) => (terms[Number(n)] ? escapeHtml(terms[Number(n)]!.target) : whole)).replace(/<g id="\d+">|<\/g>/g, ''));
}
