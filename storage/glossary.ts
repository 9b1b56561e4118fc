import type { Queryable, Transaction } from './db.js';
import { newId, now } from './ids.js';

/** A term in each language it is given in: language code → the term. */
export type GlossaryTranslations = Record<string, string>;

export interface GlossaryEntryRecord {
  id: string;
  organizationId: string;
  translations: GlossaryTranslations;
  createdAt: string;
  updatedAt: string;
}

interface EntryRow {
  id: string;
  organization_id: string;
  translations: string;
  created_at: string;
  updated_at: string;
}

const entryOf = (row: EntryRow): GlossaryEntryRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  translations: JSON.parse(row.translations) as GlossaryTranslations,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Every entry of the organization's glossary, oldest first (a glossary is a few hundred terms at most). */
export async function listGlossaryEntries(db: Queryable, organizationId: string): Promise<GlossaryEntryRecord[]> {
  const rows = await db.all<EntryRow>('SELECT * FROM glossary_entries WHERE organization_id = ? ORDER BY created_at, id', [organizationId]);
  return rows.map(entryOf);
}

export async function findGlossaryEntry(db: Queryable, organizationId: string, id: string): Promise<GlossaryEntryRecord | undefined> {
  const row = await db.get<EntryRow>('SELECT * FROM glossary_entries WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return row && entryOf(row);
}

export async function countGlossaryEntries(db: Queryable, organizationId: string): Promise<number> {
  const row = await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM glossary_entries WHERE organization_id = ?', [organizationId]);
  return Number(row?.n ?? 0);
}

export async function insertGlossaryEntry(tx: Transaction, organizationId: string, translations: GlossaryTranslations): Promise<string> {
  const id = newId();
  const at = now();
  await tx.run('INSERT INTO glossary_entries (id, organization_id, translations, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, organizationId, JSON.stringify(translations), at, at]);
  return id;
}

/** False when the organization has no such entry. */
export async function replaceGlossaryEntry(tx: Transaction, organizationId: string, id: string, translations: GlossaryTranslations): Promise<boolean> {
  const { changes } = await tx.run('UPDATE glossary_entries SET translations = ?, updated_at = ? WHERE organization_id = ? AND id = ?', [JSON.stringify(translations), now(), organizationId, id]);
  return changes === 1;
}

/** False when the organization has no such entry. */
export async function deleteGlossaryEntry(tx: Transaction, organizationId: string, id: string): Promise<boolean> {
  const { changes } = await tx.run('DELETE FROM glossary_entries WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return changes === 1;
}
