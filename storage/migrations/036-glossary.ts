import type { Migration } from './index.js';

export const glossary: Migration = {
  version: 36,
  name: 'glossary',
  // An organization's translation glossary (updateGlossaryEntries): each entry one term in the
  // languages it names, as JSON ({"en": "change request", "fr": "demande de modification"}).
  sql: `
CREATE TABLE IF NOT EXISTS glossary_entries (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  translations TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS glossary_entries_by_organization ON glossary_entries(organization_id, created_at, id);
`,
};
