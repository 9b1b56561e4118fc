import type { Database, Queryable, Transaction } from './db.js';
import { clusteringGeneration } from './issueClusters.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export interface ConversationPart {
  type: string;
  role: string;
  body: string;
}

export interface ConversationMetadata {
  url?: string;
  attributes?: Record<string, string>;
  createdAt?: string;
}

export interface ConversationRecord {
  organizationId: string;
  id: string;
  source: string;
  subject: string | null;
  parts: ConversationPart[];
  metadata: ConversationMetadata;
  createdAt: string;
  ingestedAt: string;
  revision: number;
  processedRevision: number;
  processedAt: string | null;
}

interface ConversationRow {
  organization_id: string;
  id: string;
  source: string;
  subject: string | null;
  parts: string;
  metadata: string;
  created_at: string;
  ingested_at: string;
  revision: number;
  processed_revision: number;
  processed_at: string | null;
}

const toConversation = (row: ConversationRow): ConversationRecord => ({
  organizationId: row.organization_id,
  id: row.id,
  source: row.source,
  subject: row.subject,
  parts: JSON.parse(row.parts) as ConversationPart[],
  metadata: JSON.parse(row.metadata) as ConversationMetadata,
  createdAt: row.created_at,
  ingestedAt: row.ingested_at,
  revision: row.revision,
  processedRevision: row.processed_revision,
  processedAt: row.processed_at,
});

export async function findConversation(db: Queryable, organizationId: string, conversationId: string): Promise<ConversationRecord | undefined> {
  const row = await db.get<ConversationRow>('SELECT * FROM conversations WHERE organization_id = ? AND id = ?', [organizationId, conversationId]);
  return row && toConversation(row);
}

export async function getConversation(db: Queryable, organizationId: string, conversationId: string): Promise<ConversationRecord> {
  const found = await findConversation(db, organizationId, conversationId);
  if (!found) throw notFound(`Conversation ${conversationId}`);
  return found;
}

export async function listConversations(db: Queryable, organizationId: string, filter: { source?: string }, request: PageRequest): Promise<Page<ConversationRecord>> {
  const where = ['organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (filter.source !== undefined) {
    where.push('source = ?');
    params.push(filter.source);
  }
  const page = await paginate<ConversationRow>(
    db,
    { select: '*', from: 'conversations', where: where.join(' AND '), params, sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    { order: 'desc', ...request },
  );
  return mapPage(page, toConversation);
}

export interface ConversationInput {
  id: string;
  source: string;
  subject: string | null;
  parts: ConversationPart[];
  metadata: ConversationMetadata;
}

/**
 * Stores a conversation, or updates the one posted before under the same id. An update that
 * changes nothing keeps the row as it is (no second processing); one that changes anything
 * bumps the revision, which the processing job picks up. Whether there is work to do.
 */
export async function upsertConversation(tx: Transaction, organizationId: string, input: ConversationInput): Promise<boolean> {
  const at = now();
  const parts = JSON.stringify(input.parts);
  const metadata = JSON.stringify(input.metadata);
  const existing = await tx.get<ConversationRow>('SELECT * FROM conversations WHERE organization_id = ? AND id = ?', [organizationId, input.id]);
  const createdAt = input.metadata.createdAt ? new Date(input.metadata.createdAt).toISOString() : (existing?.created_at ?? at);
  if (!existing) {
    await tx.run('INSERT INTO conversations (organization_id, id, source, subject, parts, metadata, created_at, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      organizationId,
      input.id,
      input.source,
      input.subject,
      parts,
      metadata,
      createdAt,
      at,
    ]);
    return true;
  }
  if (existing.source === input.source && existing.subject === input.subject && existing.parts === parts && existing.metadata === metadata) return false;
  await tx.run('UPDATE conversations SET source = ?, subject = ?, parts = ?, metadata = ?, created_at = ?, ingested_at = ?, revision = revision + 1 WHERE organization_id = ? AND id = ?', [
    input.source,
    input.subject,
    parts,
    metadata,
    createdAt,
    at,
    organizationId,
    input.id,
  ]);
  return true;
}

/** Conversations posted or changed since they were last processed, oldest first. */
export async function pendingConversations(db: Queryable, organizationId: string, limit: number): Promise<ConversationRecord[]> {
  const rows = await db.all<ConversationRow>('SELECT * FROM conversations WHERE organization_id = ? AND processed_revision < revision ORDER BY ingested_at, rowid LIMIT ?', [organizationId, limit]);
  return rows.map(toConversation);
}

export async function countPendingConversations(db: Queryable, organizationId: string): Promise<number> {
  return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM conversations WHERE organization_id = ? AND processed_revision < revision', [organizationId]))!.n;
}

/** Organizations with conversations waiting: the periodic job's sweep, for posts whose job could not start. */
export async function organizationsWithPendingConversations(db: Queryable): Promise<string[]> {
  const rows = await db.all<{ organization_id: string }>('SELECT DISTINCT organization_id FROM conversations WHERE processed_revision < revision');
  return rows.map((row) => row.organization_id);
}

/** Marks the conversation processed at `revision`, unless it changed since: then it stays pending. */
export async function markConversationProcessed(tx: Transaction, organizationId: string, conversationId: string, revision: number): Promise<boolean> {
  const result = await tx.run('UPDATE conversations SET processed_revision = ?, processed_at = ? WHERE organization_id = ? AND id = ? AND revision = ? AND processed_revision < ?', [
    revision,
    now(),
    organizationId,
    conversationId,
    revision,
    revision,
  ]);
  return result.changes === 1;
}

export interface ConversationIssueRecord {
  id: string;
  organizationId: string;
  conversationId: string;
  title: string;
  summary: string;
  terms: Record<string, number>;
  clusterId: string | null;
  createdAt: string;
  ingestedAt: string;
}

interface IssueRow {
  id: string;
  organization_id: string;
  conversation_id: string;
  title: string;
  summary: string;
  terms: string;
  cluster_id: string | null;
  created_at: string;
  ingested_at: string;
}

const toIssue = (row: IssueRow): ConversationIssueRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  conversationId: row.conversation_id,
  title: row.title,
  summary: row.summary,
  terms: JSON.parse(row.terms) as Record<string, number>,
  clusterId: row.cluster_id,
  createdAt: row.created_at,
  ingestedAt: row.ingested_at,
});

export interface IssueWithConversation {
  issue: ConversationIssueRecord;
  conversation: ConversationRecord;
}

const issueJoin = `conversation_issues i JOIN conversations c ON c.organization_id = i.organization_id AND c.id = i.conversation_id`;
const issueColumns = `i.id, i.organization_id, i.conversation_id, i.title, i.summary, i.terms, i.cluster_id, i.created_at, i.ingested_at,
  c.source AS c_source, c.subject AS c_subject, c.parts AS c_parts, c.metadata AS c_metadata, c.created_at AS c_created_at, c.ingested_at AS c_ingested_at,
  c.revision AS c_revision, c.processed_revision AS c_processed_revision, c.processed_at AS c_processed_at`;
interface JoinedRow extends IssueRow {
  c_source: string;
  c_subject: string | null;
  c_parts: string;
  c_metadata: string;
  c_created_at: string;
  c_ingested_at: string;
  c_revision: number;
  c_processed_revision: number;
  c_processed_at: string | null;
}

const toIssueWithConversation = (row: JoinedRow): IssueWithConversation => ({
  issue: toIssue(row),
  conversation: toConversation({
    organization_id: row.organization_id,
    id: row.conversation_id,
    source: row.c_source,
    subject: row.c_subject,
    parts: row.c_parts,
    metadata: row.c_metadata,
    created_at: row.c_created_at,
    ingested_at: row.c_ingested_at,
    revision: row.c_revision,
    processed_revision: row.c_processed_revision,
    processed_at: row.c_processed_at,
  }),
});

export async function getConversationIssue(db: Queryable, organizationId: string, issueId: string): Promise<IssueWithConversation> {
  const row = await db.get<JoinedRow>(`SELECT ${issueColumns} FROM ${issueJoin} WHERE i.organization_id = ? AND i.id = ?`, [organizationId, issueId]);
  if (!row) throw notFound(`Conversation issue ${issueId}`);
  return toIssueWithConversation(row);
}

/** Newest first; the page and its count from one snapshot, its cursor good while no consolidation runs. */
export function listConversationIssues(db: Database, organizationId: string, filter: { cluster?: string; conversation?: string }, request: PageRequest): Promise<Page<IssueWithConversation>> {
  return db.snapshot((read) => listIssuesIn(read, organizationId, filter, request));
}

async function listIssuesIn(db: Queryable, organizationId: string, filter: { cluster?: string; conversation?: string }, request: PageRequest): Promise<Page<IssueWithConversation>> {
  const where = ['i.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (filter.cluster !== undefined) {
    where.push('i.cluster_id = ?');
    params.push(filter.cluster);
  }
  if (filter.conversation !== undefined) {
    where.push('i.conversation_id = ?');
    params.push(filter.conversation);
  }
  const page = await paginate<JoinedRow>(
    db,
    {
      select: issueColumns,
      from: issueJoin,
      countFrom: 'conversation_issues i',
      where: where.join(' AND '),
      params,
      sort: ['i.created_at', 'i.id'],
      key: (row) => [row.created_at, row.id],
      generation: await clusteringGeneration(db, organizationId),
    },
    { order: 'desc', ...request },
  );
  return mapPage(page, toIssueWithConversation);
}

export async function issuesOfConversation(db: Queryable, organizationId: string, conversationId: string): Promise<ConversationIssueRecord[]> {
  const rows = await db.all<IssueRow>('SELECT * FROM conversation_issues WHERE organization_id = ? AND conversation_id = ? ORDER BY id', [organizationId, conversationId]);
  return rows.map(toIssue);
}

export async function issuesOfCluster(db: Queryable, clusterId: string): Promise<ConversationIssueRecord[]> {
  return (await db.all<IssueRow>('SELECT * FROM conversation_issues WHERE cluster_id = ? ORDER BY id', [clusterId])).map(toIssue);
}

export async function issuesOfOrganization(db: Queryable, organizationId: string): Promise<ConversationIssueRecord[]> {
  return (await db.all<IssueRow>('SELECT * FROM conversation_issues WHERE organization_id = ?', [organizationId])).map(toIssue);
}

export async function insertConversationIssue(
  tx: Transaction,
  input: { organizationId: string; conversationId: string; title: string; summary: string; terms: Record<string, number>; clusterId: string; createdAt: string },
): Promise<string> {
  const id = newId();
  await tx.run('INSERT INTO conversation_issues (id, organization_id, conversation_id, title, summary, terms, cluster_id, created_at, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    id,
    input.organizationId,
    input.conversationId,
    input.title,
    input.summary,
    JSON.stringify(input.terms),
    input.clusterId,
    input.createdAt,
    now(),
  ]);
  return id;
}

export async function deleteConversationIssue(tx: Transaction, issueId: string): Promise<void> {
  await tx.run('DELETE FROM conversation_issues WHERE id = ?', [issueId]);
}

export async function setIssueCluster(tx: Transaction, issueId: string, clusterId: string): Promise<void> {
  await tx.run('UPDATE conversation_issues SET cluster_id = ? WHERE id = ?', [clusterId, issueId]);
}
