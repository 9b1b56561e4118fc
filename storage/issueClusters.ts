import { inBatches, valuesOf } from './batches.js';
import type { Dialect } from './dialect.js';
import type { Database, Queryable, Transaction } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type KeysetQuery, type Page, type PageRequest } from './pagination.js';

export interface IssueClusterRecord {
  id: string;
  organizationId: string;
  label: string;
  summary: string;
  icon: string;
  issues: number;
  conversations: number;
  /** The size the label was last made at: it is made again as the cluster doubles. */
  labelledAtSize: number;
  createdAt: string;
  updatedAt: string;
}

interface ClusterRow {
  id: string;
  organization_id: string;
  label: string;
  summary: string;
  icon: string;
  issues: number;
  conversations: number;
  labelled_at_size: number;
  created_at: string;
  updated_at: string;
}

const toCluster = (row: ClusterRow): IssueClusterRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  label: row.label,
  summary: row.summary,
  icon: row.icon,
  issues: row.issues,
  conversations: row.conversations,
  labelledAtSize: row.labelled_at_size,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function findIssueCluster(db: Queryable, organizationId: string, clusterId: string): Promise<IssueClusterRecord | undefined> {
  const row = await db.get<ClusterRow>('SELECT * FROM issue_clusters WHERE organization_id = ? AND id = ?', [organizationId, clusterId]);
  return row && toCluster(row);
}

export async function getIssueCluster(db: Queryable, organizationId: string, clusterId: string): Promise<IssueClusterRecord> {
  const found = await findIssueCluster(db, organizationId, clusterId);
  if (!found) throw notFound(`Conversations issues cluster ${clusterId}`);
  return found;
}

/** Sort columns of the upstream `orderBy`; Quire has no tasks, so those sort as their (equal) zero counts do: by id. */
const sortColumns = { updatedAt: 'updated_at', issues: 'issues', conversations: 'conversations', tasksTotal: "''", tasksBacklog: "''", tasksStarted: "''" } as const;
export type ClusterOrder = keyof typeof sortColumns;

/** A cluster as the API shows it: its row and its activity, read in one snapshot so they agree. */
export interface ClusterWithActivity {
  cluster: IssueClusterRecord;
  activity: ClusterActivity;
}

/**
 * The organization's clusters. Quire analyses an issue as it joins its cluster, so no cluster is
 * ever `pending` or `analysing`: filtering by either status finds none. The page, its count and
 * the clusters' activity come from one snapshot; its cursor holds while no consolidation runs.
 */
export function listIssueClusters(db: Database, organizationId: string, filter: { orderBy: ClusterOrder; status?: 'pending' | 'analysing' }, request: PageRequest): Promise<Page<ClusterWithActivity>> {
  return db.snapshot(async (read) => {
    const column = sortColumns[filter.orderBy];
    const where = filter.status === undefined ? 'organization_id = ?' : 'organization_id = ? AND FALSE';
    const page = await paginate<ClusterRow & { sort_key: string | number }>(
      read,
      {
        select: `*, ${column} AS sort_key`,
        from: 'issue_clusters',
        where,
        params: [organizationId],
        sort: [column, 'id'],
        key: (row) => [row.sort_key, row.id],
        generation: await clusteringGeneration(read, organizationId),
      },
      request,
    );
    const activity = await clusterActivity(
      read,
      page.items.map((row) => row.id),
    );
    return mapPage(page, (row) => ({ cluster: toCluster(row), activity: activity.get(row.id)! }));
  });
}

/** One cluster and its activity, from one snapshot. */
export function readIssueCluster(db: Database, organizationId: string, clusterId: string): Promise<ClusterWithActivity> {
  return db.snapshot(async (read) => {
    const cluster = await getIssueCluster(read, organizationId, clusterId);
    return { cluster, activity: (await clusterActivity(read, [cluster.id])).get(cluster.id)! };
  });
}

/**
 * Which clustering the organization's issues are in: a consolidation replaces it whole (in one
 * transaction), and a cursor of a list that shows it is good for that clustering only.
 */
export async function clusteringGeneration(db: Queryable, organizationId: string): Promise<NonNullable<KeysetQuery<unknown>['generation']>> {
  const corpus = await db.get<{ consolidated_version: number }>('SELECT consolidated_version FROM conversation_corpora WHERE organization_id = ?', [organizationId]);
  return {
    value: corpus?.consolidated_version ?? 0,
    changed: "The issues were clustered again since this list's first page: list it again from the first page",
  };
}

export async function insertIssueCluster(tx: Transaction, organizationId: string, at = now()): Promise<string> {
  const id = newId();
  await tx.run('INSERT INTO issue_clusters (id, organization_id, label, summary, icon, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, organizationId, '', '', 'circle-question', at, at]);
  return id;
}

export async function deleteIssueCluster(tx: Transaction, clusterId: string): Promise<void> {
  await tx.run('DELETE FROM issue_clusters WHERE id = ?', [clusterId]);
}

export async function organizationClusterIds(db: Queryable, organizationId: string): Promise<string[]> {
  return (await db.all<{ id: string }>('SELECT id FROM issue_clusters WHERE organization_id = ? ORDER BY created_at, id', [organizationId])).map((row) => row.id);
}

/** Counts the cluster's issues and conversations again; an emptied cluster is deleted. The record, if it stays. */
export async function recountIssueCluster(tx: Transaction, clusterId: string): Promise<IssueClusterRecord | undefined> {
  const counts = (await tx.get<{ issues: number; conversations: number }>('SELECT COUNT(*) AS issues, COUNT(DISTINCT conversation_id) AS conversations FROM conversation_issues WHERE cluster_id = ?', [
    clusterId,
  ]))!;
  if (counts.issues === 0) {
    await deleteIssueCluster(tx, clusterId);
    return undefined;
  }
  await tx.run('UPDATE issue_clusters SET issues = ?, conversations = ?, updated_at = ? WHERE id = ?', [counts.issues, counts.conversations, now(), clusterId]);
  const row = await tx.get<ClusterRow>('SELECT * FROM issue_clusters WHERE id = ?', [clusterId]);
  return row && toCluster(row);
}

/**
 * Moves the cluster's counts by what a conversation's processing changed; a cluster left without
 * issues is deleted. The record, if it stays.
 */
export async function adjustIssueClusterCounts(tx: Transaction, clusterId: string, delta: { issues: number; conversations: number }): Promise<IssueClusterRecord | undefined> {
  await tx.run('UPDATE issue_clusters SET issues = issues + ?, conversations = conversations + ?, updated_at = ? WHERE id = ?', [delta.issues, delta.conversations, now(), clusterId]);
  const row = await tx.get<ClusterRow>('SELECT * FROM issue_clusters WHERE id = ?', [clusterId]);
  if (row && row.issues <= 0) {
    await deleteIssueCluster(tx, clusterId);
    return undefined;
  }
  return row && toCluster(row);
}

export async function setIssueClusterLabel(tx: Transaction, clusterId: string, label: { label: string; summary: string; icon: string; size: number }): Promise<void> {
  await tx.run('UPDATE issue_clusters SET label = ?, summary = ?, icon = ?, labelled_at_size = ? WHERE id = ?', [label.label, label.summary, label.icon, label.size, clusterId]);
}

/**
 * Centroids (sum of member vectors) of the given clusters; with `top`, only each one's heaviest
 * terms: enough to compare with an issue, and a cost that stops growing with the cluster.
 */
export async function clusterCentroids(db: Queryable, clusterIds: string[], top?: number): Promise<Map<string, Record<string, number>>> {
  const centroids = new Map<string, Record<string, number>>(clusterIds.map((id) => [id, {}]));
  if (!clusterIds.length) return centroids;
  const rows = top
    ? await db.all<{ cluster_id: string; term: string; weight: number }>(heaviestTerms[db.dialect], [JSON.stringify(clusterIds), top])
    : await db.all<{ cluster_id: string; term: string; weight: number }>('SELECT cluster_id, term, weight FROM issue_cluster_terms WHERE cluster_id IN (SELECT value FROM json_each(?))', [
        JSON.stringify(clusterIds),
      ]);
  for (const row of rows) centroids.get(row.cluster_id)![row.term] = row.weight;
  return centroids;
}

/**
 * Each listed cluster's `?` heaviest terms, read from the (cluster, weight) index. PostgreSQL
 * plans SQLite's `rowid IN (…)` form as a scan of the whole table per cluster (240 ms at 400
 * issues); a lateral join is its index walk.
 */
const heaviestTerms: Record<Dialect, string> = {
  sqlite: `SELECT c.value AS cluster_id, t.term, t.weight FROM json_each(?) c
           JOIN issue_cluster_terms t ON t.rowid IN (SELECT rowid FROM issue_cluster_terms WHERE cluster_id = c.value ORDER BY weight DESC LIMIT ?)`,
  postgres: `SELECT c.value AS cluster_id, t.term, t.weight FROM json_array_elements_text(CAST(? AS json)) AS c(value)
             CROSS JOIN LATERAL (SELECT term, weight FROM issue_cluster_terms WHERE cluster_id = c.value ORDER BY weight DESC LIMIT ?) t`,
};

/**
 * Clusters whose centroid shares a term with `terms`, best first by the summed weights of the
 * shared terms: the few worth an exact comparison. Served by the term index, so the cost follows
 * how many clusters use these terms, not how many issues there are.
 */
export async function clustersSharingTerms(db: Queryable, organizationId: string, terms: Array<{ term: string; weight: number }>, limit: number): Promise<string[]> {
  if (!terms.length) return [];
  const rows = await db.all<{ cluster_id: string }>(
    `SELECT t.cluster_id FROM ${termsLookedUp[db.dialect]}
     GROUP BY t.cluster_id ORDER BY SUM(t.weight * q.weight) DESC, t.cluster_id LIMIT ?`,
    [JSON.stringify(terms), organizationId, limit],
  );
  return rows.map((row) => row.cluster_id);
}

/**
 * The query's terms `q` (a JSON array of `{term, weight}`) as the outer loop, each looked up in the
 * term index for the organization's rows `t`. A plain join let PostgreSQL hash the whole term table
 * instead (59–77 ms a lookup at 494,000 terms); the lateral subquery keeps it to the index (3–4 ms).
 */
const termsLookedUp: Record<Dialect, string> = {
  sqlite: `(SELECT value ->> 'term' AS term, value ->> 'weight' AS weight FROM json_each(?)) q
           CROSS JOIN issue_cluster_terms t ON t.organization_id = ? AND t.term = q.term`,
  postgres: `json_to_recordset(CAST(? AS json)) AS q(term text, weight double precision)
             CROSS JOIN LATERAL (SELECT cluster_id, weight FROM issue_cluster_terms WHERE organization_id = ? AND term = q.term OFFSET 0) t`,
};

/** Adds (or with sign -1 removes) a member's vector to its cluster's centroid. */
export async function addToCentroid(tx: Transaction, organizationId: string, clusterId: string, vector: Record<string, number>, sign: 1 | -1): Promise<void> {
  // Many terms a statement (a vector's keys are distinct, so no row is upserted twice in one).
  for (const rows of inBatches(Object.entries(vector))) {
    const values = valuesOf(rows.map(([term, weight]) => [clusterId, organizationId, term, sign * weight]));
    await tx.run(
      `INSERT INTO issue_cluster_terms (cluster_id, organization_id, term, weight) ${values.sql}
       ON CONFLICT (cluster_id, term) DO UPDATE SET weight = issue_cluster_terms.weight + excluded.weight`,
      values.params,
    );
  }
  if (sign < 0) {
    await tx.run('DELETE FROM issue_cluster_terms WHERE cluster_id = ? AND term IN (SELECT value FROM json_each(?)) AND ABS(weight) < 1e-9', [clusterId, JSON.stringify(Object.keys(vector))]);
  }
}

export async function replaceCentroid(tx: Transaction, organizationId: string, clusterId: string, centroid: Record<string, number>): Promise<void> {
  await tx.run('DELETE FROM issue_cluster_terms WHERE cluster_id = ?', [clusterId]);
  await addToCentroid(tx, organizationId, clusterId, centroid, 1);
}

export interface CorpusCounts {
  issues: number;
  version: number;
  consolidatedVersion: number;
  documents: Map<string, number>;
  surface: Map<string, string>;
}

/** The organization's issue count and the document frequencies of `terms` (all terms when omitted). */
export async function corpusCounts(db: Queryable, organizationId: string, terms?: string[]): Promise<CorpusCounts> {
  const corpus = await db.get<{ issues: number; version: number; consolidated_version: number }>('SELECT * FROM conversation_corpora WHERE organization_id = ?', [organizationId]);
  const rows = terms
    ? await db.all<{ term: string; documents: number; surface: string }>(
        'SELECT term, documents, surface FROM conversation_terms WHERE organization_id = ? AND term IN (SELECT value FROM json_each(?))',
        [organizationId, JSON.stringify(terms)],
      )
    : await db.all<{ term: string; documents: number; surface: string }>('SELECT term, documents, surface FROM conversation_terms WHERE organization_id = ?', [organizationId]);
  return {
    issues: corpus?.issues ?? 0,
    version: corpus?.version ?? 0,
    consolidatedVersion: corpus?.consolidated_version ?? 0,
    documents: new Map(rows.map((row) => [row.term, row.documents])),
    surface: new Map(rows.map((row) => [row.term, row.surface])),
  };
}

/** Counts an issue in (sign 1) or out of (-1) the organization's corpus, and bumps its version. */
export async function countIssueInCorpus(tx: Transaction, organizationId: string, surface: Record<string, string>, sign: 1 | -1): Promise<void> {
  await tx.run(
    `INSERT INTO conversation_corpora (organization_id, issues, version) VALUES (?, ?, 1)
     ON CONFLICT (organization_id) DO UPDATE SET issues = conversation_corpora.issues + excluded.issues, version = conversation_corpora.version + 1`,
    [organizationId, sign],
  );
  for (const rows of inBatches(Object.entries(surface))) {
    const values = valuesOf(rows.map(([term, word]) => [organizationId, term, sign, word]));
    await tx.run(
      `INSERT INTO conversation_terms (organization_id, term, documents, surface) ${values.sql}
       ON CONFLICT (organization_id, term) DO UPDATE SET documents = conversation_terms.documents + excluded.documents`,
      values.params,
    );
  }
  if (sign < 0) {
    await tx.run('DELETE FROM conversation_terms WHERE organization_id = ? AND term IN (SELECT value FROM json_each(?)) AND documents <= 0', [organizationId, JSON.stringify(Object.keys(surface))]);
  }
}

export async function bumpCorpusVersion(tx: Transaction, organizationId: string): Promise<void> {
  await tx.run('UPDATE conversation_corpora SET version = version + 1 WHERE organization_id = ?', [organizationId]);
}

export async function markCorpusConsolidated(tx: Transaction, organizationId: string, version: number): Promise<void> {
  await tx.run('UPDATE conversation_corpora SET consolidated_version = ? WHERE organization_id = ?', [version, organizationId]);
}

/** Organizations whose issues changed since their clusters were last consolidated. */
export async function organizationsToConsolidate(db: Queryable): Promise<string[]> {
  return (await db.all<{ organization_id: string }>('SELECT organization_id FROM conversation_corpora WHERE version > consolidated_version')).map((row) => row.organization_id);
}

export interface ClusterActivity {
  sources: Record<string, number>;
  /** Issues per week, the last 13 weeks, oldest first. */
  weeklyPulse: number[];
}

/** Whole weeks from `created_at` to the time given as the parameter. */
const weeksBefore: Record<Dialect, string> = {
  sqlite: 'CAST((julianday(?) - julianday(created_at)) / 7 AS INTEGER)',
  postgres: 'CAST(floor(EXTRACT(EPOCH FROM CAST(? AS timestamptz) - CAST(created_at AS timestamptz)) / 604800) AS INTEGER)',
};

/** Per cluster: its issues counted by their conversation's source, and by week of the conversation's creation. */
export async function clusterActivity(db: Queryable, clusterIds: string[], at = new Date()): Promise<Map<string, ClusterActivity>> {
  const activity = new Map<string, ClusterActivity>(clusterIds.map((id) => [id, { sources: {}, weeklyPulse: new Array<number>(13).fill(0) }]));
  if (!clusterIds.length) return activity;
  const ids = JSON.stringify(clusterIds);
  const sources = await db.all<{ cluster_id: string; source: string; n: number }>(
    `SELECT i.cluster_id, c.source, COUNT(*) AS n FROM conversation_issues i JOIN conversations c ON c.organization_id = i.organization_id AND c.id = i.conversation_id
     WHERE i.cluster_id IN (SELECT value FROM json_each(?)) GROUP BY i.cluster_id, c.source`,
    [ids],
  );
  for (const row of sources) activity.get(row.cluster_id)!.sources[row.source] = row.n;
  const weeks = await db.all<{ cluster_id: string; weeks_ago: number; n: number }>(
    `SELECT cluster_id, ${weeksBefore[db.dialect]} AS weeks_ago, COUNT(*) AS n FROM conversation_issues
     WHERE cluster_id IN (SELECT value FROM json_each(?)) AND created_at > ? AND created_at <= ? GROUP BY cluster_id, weeks_ago`,
    [at.toISOString(), ids, new Date(at.getTime() - 13 * 7 * 86_400_000).toISOString(), at.toISOString()],
  );
  for (const row of weeks) if (row.weeks_ago >= 0 && row.weeks_ago < 13) activity.get(row.cluster_id)!.weeklyPulse[12 - row.weeks_ago]! += row.n;
  return activity;
}
