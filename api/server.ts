import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { databaseLocation, openDatabase, type Database } from '../storage/db.js';
import { createApp } from './app.js';
import { bootstrapInstance } from '../domain/organizations/index.js';
import { settleSearchRefreshes } from '../domain/spaces/index.js';
import { closeEmbeddingThread } from '../domain/conversations/index.js';
import { InsightsRecorder } from '../domain/insights/index.js';
import { checkGitBinary, closeHookChannel } from '../domain/git/index.js';
import type { Config } from './config.js';
import { DownloadSigner } from './downloadSigner.js';
import { instanceKey } from '../domain/common/instanceKeys.js';
import { Urls } from './urls.js';
import { JobClient } from '../workflows/client.js';
import { closeWorkerPool, localSpaceRepositories, settlePageFilesSnapshots } from '../engine/index.js';
import { nodeRoutingSecret, reconcileInBackground, storageNode, storageOfSpace } from '../domain/storages/index.js';
import { EventLoopDelay } from './metrics.js';
import { acceptCollaboration } from './webApp/collabSocket.js';
import type { Repositories } from '../domain/common/ports.js';

/** Runs one named part of the shutdown (stopOnSignals times it). */
type ShutdownStep = <T>(name: string, run: () => Promise<T>) => Promise<T>;

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  jobs: JobClient;
  /** The space repositories the API serves, for a worker in the same process to share. */
  repositories: Repositories;
  /** Readers' events waiting to be counted (tests flush it to read what was counted). */
  insights: InsightsRecorder;
  /**
   * Resolves once no request has been in flight for `quietMs`, or after `maxMs` at most: what
   * `npm start` waits for before starting its worker, so the first requests don't share the
   * thread with it.
   */
  quiet(quietMs: number, maxMs: number): Promise<void>;
  /** Stops serving; `step` times each part (see stopOnSignals). */
  close(step?: ShutdownStep): Promise<void>;
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
  const insights = new InsightsRecorder(db);
  const server = http.createServer(createApp({ db, config, urls, jobs, repositories, insights, storageNode: routing }, { eventLoopDelay }));
  // An idle keep-alive connection is closed by its client first: clients (undici: the server's hint
  // less 1 s; load balancers: 60 s) reuse a socket the server may be closing at that instant, and
  // that request fails unanswered. Headers may take as long as the idle wait they follow.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;
  const collaboration = acceptCollaboration(server, { db, repositories, dataDir: config.dataDir, jobs }, config);
  const connections = closingConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  if (!config.publicUrl) (urls as { base: string }).base = `http://localhost:${port}`;
  node?.start(config.nodeUrl ?? `http://127.0.0.1:${port}`);
  // One node: a storage node does this when it takes its storage.
  if (!node) void reconcileInBackground({ db, repositories }, repositories.storage);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    db,
    jobs,
    repositories,
    insights,
    quiet: (quietMs, maxMs) => connections.quiet(quietMs, maxMs),
    close: async (step: ShutdownStep = (_name, run) => run()) => {
      const closed = new Promise<void>((resolve) => {
        server.close(() => resolve());
        connections.endAfterResponses();
      });
      // Shared editors write what they hold first: their saves need the threads and the database.
      await step('shared editors', () => collaboration.close());
      // Busy worker threads are stopped, not waited for: the requests they served end now.
      await step('threads', () => Promise.all([closeWorkerPool(), closeEmbeddingThread()]));
      await step('connections', () => closed);
      await step('storage node', async () => node?.stop());
      await step('git hooks', () => closeHookChannel());
      await step('search refreshes', () => settleSearchRefreshes());
      await step('page file snapshots', () => settlePageFilesSnapshots());
      await step('site insights', () => insights.close());
      eventLoopDelay.stop();
      await step('jobs', () => jobs.close());
      await step('database', () => db.close());
    },
  };
}

/**
 * Keep-alive connections end with the response under way when the server closes: `server.close`
 * only waits for them, and a client keeps an idle one open for seconds.
 */
function closingConnections(server: http.Server): { endAfterResponses(): void; quiet(quietMs: number, maxMs: number): Promise<void> } {
  const inFlight = new Set<http.ServerResponse>();
  let closing = false;
  let lastEnded = 0;
  const endAfter = (response: http.ServerResponse) => {
    if (!response.headersSent) {
      response.shouldKeepAlive = false; // answered with "Connection: close", then the socket ends
      return;
    }
    const socket = response.socket;
    response.once('finish', () => socket?.end());
  };
  server.on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    if (closing) return endAfter(response);
    inFlight.add(response);
    response.once('close', () => {
      inFlight.delete(response);
      lastEnded = performance.now();
    });
  });
  return {
    quiet: (quietMs, maxMs) => {
      const since = performance.now();
      return new Promise<void>((resolve) => {
        const check = () => {
          const now = performance.now();
          if ((inFlight.size === 0 && now - Math.max(lastEnded, since) >= quietMs) || now - since >= maxMs) resolve();
          else setTimeout(check, Math.min(quietMs, 20));
        };
        check();
      });
    },
    endAfterResponses: () => {
      closing = true;
      server.closeIdleConnections();
      inFlight.forEach(endAfter);
    },
  };
}
