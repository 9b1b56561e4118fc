import type { GitSyncRecord } from '../../storage/gitSync.js';

/** Upstream's GitSyncState: the provider details the latest import or export was given. */
export function presentGitSync(record: GitSyncRecord) {
  return {
    ...(record.repoName ? { repoName: record.repoName } : {}),
    ...(record.provider ? { installationProvider: record.provider } : {}),
    ...(record.url ? { url: record.url } : {}),
    updatedAt: record.updatedAt,
  };
}
