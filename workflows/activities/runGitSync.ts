import type { ContentDeps } from '../../domain/common/deps.js';
import { runGitSync as run, type GitSyncJob } from '../../domain/git/index.js';

export function runGitSync(deps: ContentDeps) {
  return (job: GitSyncJob) => run(deps, job);
}
