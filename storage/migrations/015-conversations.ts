import type { Migration } from './index.js';
import { postgresSchema, withRowid } from '../dialect.js';

const sql = `
-- Support conversations an organization posts, personal data already redacted. "id" is the
-- source's id: posting it again updates the row and bumps "revision"; the processing job brings
-- "processed_revision" up to it.
CREATE TABLE conversations (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  source TEXT NOT NULL,
  subject TEXT,
  parts TEXT NOT NULL,
  metadata TEXT NOT NULL,
  created_at TEXT NOT NULL,
  ingested_at TEXT NOT NULL,
  revision INTEGER NOT NULL DEFAULT 1,
  processed_revision INTEGER NOT NULL DEFAULT 0,
  processed_at TEXT,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX conversations_by_creation ON conversations (organization_id, created_at, id);
CREATE INDEX conversations_by_source ON conversations (organization_id, source, created_at, id);
CREATE INDEX conversations_pending ON conversations (organization_id, ingested_at) WHERE processed_revision < revision;

-- Issue clusters; "issues" and "conversations" are kept true by every change of membership, so
-- lists sort by them. The centroid is in issue_cluster_terms.
CREATE TABLE issue_clusters (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  summary TEXT NOT NULL,
  icon TEXT NOT NULL,
  issues INTEGER NOT NULL DEFAULT 0,
  conversations INTEGER NOT NULL DEFAULT 0,
  labelled_at_size INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX issue_clusters_by_update ON issue_clusters (organization_id, updated_at, id);
CREATE INDEX issue_clusters_by_issues ON issue_clusters (organization_id, issues, id);
CREATE INDEX issue_clusters_by_conversations ON issue_clusters (organization_id, conversations, id);
CREATE TABLE issue_cluster_terms (
  cluster_id TEXT NOT NULL REFERENCES issue_clusters(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,
  term TEXT NOT NULL,
  weight REAL NOT NULL,
  PRIMARY KEY (cluster_id, term)
);
CREATE INDEX issue_cluster_terms_by_term ON issue_cluster_terms (organization_id, term);
CREATE INDEX issue_cluster_terms_by_weight ON issue_cluster_terms (cluster_id, weight);

-- Documentation issues found in conversations; "terms" is the stem vector clustering uses.
CREATE TABLE conversation_issues (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  terms TEXT NOT NULL,
  cluster_id TEXT REFERENCES issue_clusters(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  ingested_at TEXT NOT NULL,
  FOREIGN KEY (organization_id, conversation_id) REFERENCES conversations (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX conversation_issues_by_creation ON conversation_issues (organization_id, created_at, id);
CREATE INDEX conversation_issues_of_conversation ON conversation_issues (organization_id, conversation_id);
CREATE INDEX conversation_issues_of_cluster ON conversation_issues (cluster_id, created_at);

-- Document frequencies of stems over the organization's issues (for TF-IDF), the word each stem
-- was first seen as (for labels), and per organization the issue count and a version that every
-- change of issues bumps, so consolidation knows whether its snapshot is still current.
CREATE TABLE conversation_terms (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  term TEXT NOT NULL,
  documents INTEGER NOT NULL,
  surface TEXT NOT NULL,
  PRIMARY KEY (organization_id, term)
);
CREATE TABLE conversation_corpora (
  organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  issues INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 0,
  consolidated_version INTEGER NOT NULL DEFAULT 0
);

-- A change request may say which issue cluster it addresses (a Quire extension).
ALTER TABLE change_requests ADD COLUMN conversations_issues_cluster TEXT;
CREATE INDEX change_requests_by_cluster ON change_requests (conversations_issues_cluster) WHERE conversations_issues_cluster IS NOT NULL;
`;

export const conversations: Migration = {
  version: 15,
  name: 'conversations',
  sql,
  postgres: withRowid(postgresSchema(sql), ['conversations', 'issue_cluster_terms']),
};
