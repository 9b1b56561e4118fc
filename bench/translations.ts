// Issue 12's translation figures: a run over a 100-page space with a loopback LibreTranslate
// (answers at once), from the POST to the completed run; then a re-run after a one-page change.
// Runs the built server (dist/) with its worker, as `npm start` does.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, pageMarkdown, spaceWithPages, type Api } from './jobSpaces.js';
import { buildQuire, fmt, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

interface Translation {
  id: string;
  stats: { runs: number; latestPages: number; latestWords: number };
}

export async function benchTranslations(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  let texts = 0;
  const translator = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { q } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { q: string[] };
      texts += q.length;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: q.map((text) => `FR ${text}`) }));
    });
  });
  await new Promise<void>((resolve) => translator.listen(0, '127.0.0.1', resolve));
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const server = await spawnQuire({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TEMPORAL_ADDRESS: await sharedTemporalAddress(),
    QUIRE_TASK_QUEUE: `bench-${randomUUID()}`,
    QUIRE_TRANSLATOR: 'libretranslate',
    QUIRE_LIBRETRANSLATE_URL: `http://127.0.0.1:${(translator.address() as AddressInfo).port}`,
  });
  const api: Api = { url: server.url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
  const completed = async (id: string, runs: number) => {
    for (;;) {
      const translation = await call<Translation>(api, 'GET', `/orgs/${organizationId}/translations/${id}`);
      if (translation.stats.runs >= runs) return translation;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    const spaceId = await spaceWithPages(api, organizationId, 'Handbook', 100);
    let started = performance.now();
    const created = await call<Translation>(api, 'POST', `/orgs/${organizationId}/translations`, { language: 'fr', source: { space: spaceId, language: 'en' } });
    const first = await completed(created.id, 1);
    figures[`first run, 100-page space (${first.stats.latestWords} words, ${texts} texts): ms from POST to completed (target ≤ 10000)`] = fmt(performance.now() - started, 0);

    const changeRequest = await call<{ id: string }>(api, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'One page' });
    const pages = await call<{ pages: Array<{ id: string; title: string }> }>(api, 'GET', `/spaces/${spaceId}/change-requests/${changeRequest.id}/content/pages`);
    const page = pages.pages.find((item) => item.title === 'Chapter 42')!;
    await call(api, 'POST', `/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, {
      changes: [{ operation: 'update_page', page: page.id, document: { markdown: pageMarkdown(42, ' (revised)') } }],
    });
    await call(api, 'POST', `/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`);
    const before = texts;
    started = performance.now();
    await call(api, 'POST', `/orgs/${organizationId}/translations/${created.id}/run`);
    const second = await completed(created.id, 2);
    figures[`re-run after a one-page change (${second.stats.latestPages} page, ${texts - before} texts): ms from POST to completed (target ≤ 2000)`] = fmt(performance.now() - started, 0);
  } finally {
    await server.stop();
    translator.close();
  }
  return figures;
}
