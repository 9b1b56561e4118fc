// The OpenAPI figure of issue 12: processing @gitbook/api 0.146.0's own spec file (1.7 MB),
// served from loopback, from the PUT to `processingState: complete`. Runs the built server (dist/)
// with its worker, as `npm start` does.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildQuire, fmt, root, sharedTemporalAddress, spawnQuire, spread, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const specFile = path.join(root, 'node_modules/@gitbook/api/spec/openapi.json');
const rounds = 5;

export async function benchOpenAPI(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  const spec = readFileSync(specFile);
  const source = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(spec));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/openapi.json`;
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS, QUIRE_TASK_QUEUE: `bench-${randomUUID()}`, QUIRE_ALLOW_PRIVATE_FETCH: '1' });
  const specs = `${server.url}/v1/orgs/${organizationId}/openapi`;

  /** Milliseconds from the PUT to `complete` with a version processed after it. */
  const putToComplete = async (slug: string): Promise<number> => {
    const started = performance.now();
    const since = new Date().toISOString();
    const put = await fetch(`${specs}/${slug}`, { method: 'PUT', headers, body: JSON.stringify({ source: { url } }) });
    if (!put.ok) throw new Error(`PUT answered ${put.status}: ${await put.text()}`);
    for (;;) {
      const body = (await (await fetch(`${specs}/${slug}`, { headers })).json()) as { processingState: string; lastProcessedAt?: string; lastProcessErrorCode?: string; lastProcessedErrors?: unknown };
      if (body.processingState === 'complete' && (body.lastProcessedAt ?? '') > since) {
        if (body.lastProcessErrorCode) throw new Error(`processing failed: ${JSON.stringify(body.lastProcessedErrors)}`);
        return performance.now() - started;
      }
      if (performance.now() - started > 60_000) throw new Error(`${slug} not complete after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  try {
    const first = await putToComplete('cold');
    const fresh: number[] = [];
    for (let i = 0; i < rounds; i += 1) fresh.push(await putToComplete(`spec-${i}`));
    const unchanged: number[] = [];
    for (let i = 0; i < rounds; i += 1) unchanged.push(await putToComplete('spec-0'));
    const versions = (await (await fetch(`${specs}/spec-0/versions`, { headers })).json()) as { count: number };
    figures[`spec file: ${fmt(spec.length / 1e6)} MB; PUT → complete, first on a fresh worker: ms (target ≤ 5000)`] = fmt(first, 0);
    figures['PUT → complete, new slugs: median ms (min–max, n)'] = spread(fresh, 0);
    figures['re-PUT of unchanged content → complete: median ms (min–max, n)'] = spread(unchanged, 0);
    figures['versions after the unchanged re-PUTs (expected 1)'] = String(versions.count);
  } finally {
    await server.stop();
    source.close();
  }
  return figures;
}
