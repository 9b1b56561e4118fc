import type { Queryable } from './db.js';
import { now } from './ids.js';

export interface GitSyncRecord {
  spaceId: string;
  provider: 'github' | 'gitlab' | null;
  url: string | null;
  repoName: string | null;
  updatedAt: string;
  lastDirection: 'import' | 'export' | null;
  lastState: 'running' | 'success' | 'failure' | null;
  lastMessage: string | null;
  lastCommit: string | null;
}

interface GitSyncRow {
  space_id: string;
  provider: 'github' | 'gitlab' | null;
  url: string | null;
  repo_name: string | null;
  updated_at: string;
  last_direction: 'import' | 'export' | null;
  last_state: 'running' | 'success' | 'failure' | null;
  last_message: string | null;
  last_commit: string | null;
}

const toRecord = (row: GitSyncRow): GitSyncRecord => ({
  spaceId: row.space_id,
  provider: row.provider,
  url: row.url,
  repoName: row.repo_name,
  updatedAt: row.updated_at,
  lastDirection: row.last_direction,
  lastState: row.last_state,
  lastMessage: row.last_message,
  lastCommit: row.last_commit,
});

export async function findGitSync(db: Queryable, spaceId: string): Promise<GitSyncRecord | undefined> {
  const row = await db.get<GitSyncRow>('SELECT * FROM space_git_sync WHERE space_id = ?', [spaceId]);
  return row && toRecord(row);
}

/** Records the provider details an operation was given (kept when it gives none). */
export async function recordGitInfo(db: Queryable, spaceId: string, info: { provider?: 'github' | 'gitlab'; url?: string; repoName: string }): Promise<void> {
  await db.run(
    `INSERT INTO space_git_sync (space_id, provider, url, repo_name, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (space_id) DO UPDATE SET provider = COALESCE(excluded.provider, space_git_sync.provider), url = COALESCE(excluded.url, space_git_sync.url), repo_name = excluded.repo_name, updated_at = excluded.updated_at`,
    [spaceId, info.provider ?? null, info.url ?? null, info.repoName, now()],
  );
}

/** The outcome of the latest import or export. */
export async function recordGitOperation(
  db: Queryable,
  spaceId: string,
  outcome: { direction: 'import' | 'export'; state: 'running' | 'success' | 'failure'; message?: string; commit?: string },
): Promise<void> {
  await db.run(
    `INSERT INTO space_git_sync (space_id, updated_at, last_direction, last_state, last_message, last_commit) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (space_id) DO UPDATE SET last_direction = excluded.last_direction, last_state = excluded.last_state, last_message = excluded.last_message, last_commit = COALESCE(excluded.last_commit, space_git_sync.last_commit)`,
    [spaceId, now(), outcome.direction, outcome.state, outcome.message ?? null, outcome.commit ?? null],
  );
}
