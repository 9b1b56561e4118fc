import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../../api/config.js';
import { startServer, type RunningServer } from '../../api/server.js';
import { createToken } from '../../storage/tokens.js';
import { createUser } from '../../storage/users.js';
import { startWorker, type RunningWorker } from '../../workflows/worker.js';
import { testDatabaseUrl } from './postgres.js';
import { testTemporalSettings } from './temporal.js';
import { assertErrorBody, assertUpstreamResponse } from './upstream.js';
import { parseRateLimit } from '../../api/rateLimits.js';
import { defaultRateLimit, parseDuration } from '../../api/config.js';

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer {
  url: string;
  dataDir: string;
  server: RunningServer;
  /** Calls the API; every answer is checked against the upstream schema (errors as the upstream error body) before it is returned. */
  call<T = any>(method: string, path: string, options?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Response<T>>;
  /** A new user with a token (what `npm run admin -- token create` does). */
  user(email?: string, options?: { verified?: boolean; name?: string }): Promise<{ id: string; email: string; token: string }>;
  /** Stops the worker and the server; the data directory goes too unless `keepData` (to start again over it). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

let counter = 0;

/**
 * The real server on an ephemeral loopback port, over a new temporary data directory, with jobs on
 * the test run's Temporal dev server; `worker: true` also runs a worker for them, as `npm start` does.
 */
export async function startTestServer(overrides: Partial<Config> = {}, options: { worker?: boolean; dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'quire-test-'));
  const temporal = overrides.temporal ?? (await testTemporalSettings());
  const databaseUrl = overrides.databaseUrl ?? (await testDatabaseUrl(dataDir));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    bodyLimitBytes: 1024 * 1024,
    accessLog: false,
    lightReads: true,
    spaceRetentionMs: 7 * 86_400_000,
    downloadUrlWindowMs: 12 * 3_600_000,
    runWorker: false,
    rateLimit: parseRateLimit(defaultRateLimit, parseDuration),
    ...overrides,
    temporal,
  });
  const worker: RunningWorker | undefined = options.worker ? await startWorker(temporal, { db: server.db, repositories: server.repositories, dataDir, jobs: server.jobs }) : undefined;
  return {
    url: server.url,
    dataDir,
    server,
    async call(method, requestPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(server.url + requestPath, { method, headers, body }).catch((error: Error & { cause?: { code?: string; message?: string } }) => {
        // undici says only "fetch failed": the cause (a reset, a connect timeout) is what tells a flake from a defect.
        throw new Error(`${method} ${requestPath}: ${error.message} (${error.cause?.code ?? ''} ${error.cause?.message ?? ''})`, { cause: error });
      });
      const text = await response.text();
      const parsed = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || undefined;
      if (response.status >= 200 && response.status < 300) assertUpstreamResponse(method, requestPath, response.status, parsed);
      else if (response.status >= 400) assertErrorBody(response.status, parsed, `${method} ${requestPath}`);
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async user(email, options = {}) {
      counter += 1;
      const user = await createUser(server.db, {
        email: email ?? `user${counter}-${Date.now()}@example.com`,
        displayName: options.name,
        emailVerified: options.verified ?? true,
      });
      const { token } = await createToken(server.db, user.id);
      return { id: user.id, email: user.email, token };
    },
    async close(options: { keepData?: boolean } = {}) {
      await worker?.stop();
      await server.close();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
