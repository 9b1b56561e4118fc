import type { Database } from '../../storage/db.js';
import type { JobClient } from '../../workflows/client.js';

/** What the domain commands work with: the database and the folder of the space repositories. */
export interface ContentDeps {
  db: Database;
  dataDir: string;
}

/** The same, with the job client and retention for the commands that start or signal jobs. */
export interface JobDeps extends ContentDeps {
  jobs: JobClient;
  retentionMs: number;
}
