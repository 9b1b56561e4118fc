import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { databaseLocation, openDatabase, type Database } from '../storage/db.js';
import { createApp } from './app.js';
import { bootstrapInstance } from '../domain/organizations/index.js';
import { settleSearchRefreshes } from '../domain/spaces/index.js';
import { checkGitBinary, closeHookChannel } from '../domain/git/index.js';
import type { Config } from './config.js';
import { DownloadSigner } from './downloadSigner.js';
import { instanceKey } from '../domain/common/instanceKeys.js';
import { Urls } from './urls.js';
import { JobClient } from '../workflows/client.js';
import { localSpaceRepositories } from '../engine/spaceRepositories.js';
import { closeWorkerPool } from '../engine/workerPool.js';
import { nodeRoutingSecret, storageNode, storageOfSpace } from '../domain/storages/index.js';
import { EventLoopDelay } from './metrics.js';
import type { Repositories } from '../domain/common/ports.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  jobs: JobClient;
  /** The space repositories the API serves, for a worker in the same process to share. */
  repositories: Repositories;
  close(): Promise<void>;
}

/** Opens the data directory (migrating it), bootstraps an empty instance, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  checkGitBinary();
  mkdirSync(config.dataDir, { recursive: true });
  const db = await openDatabase(databaseLocation(config.dataDir, config.databaseUrl));
  if (config.bootstrap) await bootstrapInstance(db, config.bootstrap);

  const urls = new Urls(config.publicUrl ?? `http://localhost:${config.port}`, new DownloadSigner(await instanceKey({ db, dataDir: config.dataDir }, 'download-urls'), config.downloadUrlWindowMs));
  // On storage nodes, a space whose repository isn't here is another node's (see storageRouting),
  // and the jobs on a space's repository go to its storage's queue.
  const repositories = localSpaceRepositories(config.dataDir, config.storage === undefined ? {} : { storage: config.storage, onlyPresent: true });
  const jobs = new JobClient(config.temporal, config.storage === undefined ? undefined : (spaceId) => storageOfSpace(db, spaceId));
  const node = config.storage === undefined ? undefined : storageNode({ db, repositories }, config.storage === 'none' ? null : config.storage);
  const routing = node && { node, secret: await nodeRoutingSecret({ db, dataDir: config.dataDir }) };
  const eventLoopDelay = new EventLoopDelay();
  const app = createApp({ db, config, urls, jobs, repositories, storageNode: routing }, { eventLoopDelay });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  if (!config.publicUrl) (urls as { base: string }).base = `http://localhost:${port}`;
  node?.start(config.nodeUrl ?? `http://127.0.0.1:${port}`);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    db,
    jobs,
    repositories,
    close: async () => {
      const closed = new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // Busy worker threads are stopped, not waited for: the requests they served end now.
      await closeWorkerPool();
      await closed;
      await node?.stop();
      await closeHookChannel();
      await settleSearchRefreshes();
      eventLoopDelay.stop();
      await jobs.close();
      await db.close();
    },
  };
}
