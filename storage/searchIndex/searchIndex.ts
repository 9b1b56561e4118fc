import type { Queryable } from '../db.js';

/** A matching section as a full-text index finds it: the page's row joined, its excerpt made when asked. */
export interface SectionRow {
  space_id: string;
  page_id: string;
  section_id: string;
  section_title: string;
  /** The section's text, as indexed. */
  body: string;
  excerpt: () => string;
  title: string;
  path: string;
  ancestors: string;
  score: number;
}

/**
 * The full-text search of `search_sections` (title, body) per database: rows are written by the
 * same statements on both; only the match, the ranking, the excerpt and how one space's rows are
 * found differ.
 */
export interface SearchIndex {
  /** Sections in `spaceIds` matching every word (the last as a prefix), best first. */
  sections(db: Queryable, spaceIds: string[], words: string[], limit: number): Promise<SectionRow[]>;
  /** A condition on `search_sections` keeping one space's rows, found through an index. */
  ofSpace(spaceId: string): { where: string; params: unknown[] };
}
