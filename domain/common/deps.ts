import type { Database } from '../../storage/db.js';
import type { Jobs, Repositories } from './ports.js';

/**
 * What the domain commands work with: the database, the space repositories, and the data folder
 * for the files kept beside them (PDF exports).
 */
export interface ContentDeps {
  db: Database;
  repositories: Repositories;
  dataDir: string;
  /** Where a change of published content is announced (a renderer's revalidation); absent, it isn't. */
  jobs?: Pick<Jobs, 'startRendererRevalidation'>;
}

/** The same, with the jobs and the retention for the commands that start or signal jobs. */
export interface JobDeps extends ContentDeps {
  jobs: Jobs;
  retentionMs: number;
}
