// How soon a process sees what another wrote to the same DATA_DIR: the README's "within 100 ms"
// for a token revoked from outside (the admin CLI) and for a write through another API process.
// Two built servers (dist/) over one data directory; the revocation is written from this process,
// as the CLI writes it, so the figure is the server's noticing, not the CLI's start-up.
import path from 'node:path';
import { openDatabase } from '../storage/db.js';
import { createToken, revokeToken } from '../storage/tokens.js';
import { buildQuire, fmt, sharedTemporalAddress, spawnQuire, spread, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const trials = 20;

const status = async (url: string, token: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
};

/** Milliseconds from `since` until `check` holds, polling every millisecond or so (gives up after 5 s). */
async function msUntil(since: bigint, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return Number(process.hrtime.bigint() - since) / 1e6;
    if (Number(process.hrtime.bigint() - since) > 5e9) throw new Error('not seen within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

export async function benchCrossProcess(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS, QUIRE_WORKER: 'off' };
  const [first, second] = [await spawnQuire(env), await spawnQuire(env)];
  const db = await openDatabase(path.join(dataDir, 'quire.sqlite'));
  const figures: Record<string, string> = {};
  try {
    const userId = (await (await fetch(`${first.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).json()).id as string;
    const revocations: number[] = [];
    for (let i = 0; i < trials; i += 1) {
      const { token: victim, record } = await createToken(db, userId);
      for (let j = 0; j < 3; j += 1) if ((await status(`${first.url}/v1/user`, victim)) !== 200) throw new Error('a new token was refused');
      await revokeToken(db, record.id);
      const revokedAt = process.hrtime.bigint();
      revocations.push(await msUntil(revokedAt, async () => (await status(`${first.url}/v1/user`, victim)) === 401));
    }
    figures['token revoked from another process, until refused: median (min–max) ms (target ≤ 100)'] = spread(revocations);

    const writes: number[] = [];
    const orgPath = `/v1/orgs/${organizationId}`;
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < trials; i += 1) {
      await (await fetch(second.url + orgPath, { headers: auth })).arrayBuffer(); // cached in the second process
      const title = `Renamed ${i}`;
      const patched = await fetch(first.url + orgPath, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
      if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}`);
      const writtenAt = process.hrtime.bigint();
      writes.push(await msUntil(writtenAt, async () => ((await (await fetch(second.url + orgPath, { headers: auth })).json()) as { title: string }).title === title));
    }
    figures['write through one API process, until the other serves it: median (min–max) ms (target ≤ 100)'] = spread(writes);
    figures['… worst of both, ms'] = fmt(Math.max(...revocations, ...writes), 1);
  } finally {
    await db.close();
    await Promise.all([first.stop(), second.stop()]);
  }
  return figures;
}
