// The comments figure of issue 11: listing the comments of one page that holds 1,000 of them.
// Runs the built server (dist/) as its own process; the comments, replies and reactions are
// posted through the API by ten members, as people would.
import path from 'node:path';
import { openDatabase } from '../storage/db.js';
import { addMembership } from '../storage/members.js';
import { createToken } from '../storage/tokens.js';
import { createUser } from '../storage/users.js';
import { buildQuire, fmt, latency, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

/** Ten members who may comment, each with a token. */
async function seedCommenters(dataDir: string, organizationId: string): Promise<string[]> {
  const db = await openDatabase(path.join(dataDir, 'quire.sqlite'));
  const tokens = await db.transaction(async (tx) => {
    const made: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const user = await createUser(tx, { email: `commenter${i}@example.com`, displayName: `Commenter ${i}` });
      await addMembership(tx, { organizationId, userId: user.id, role: 'edit' });
      made.push((await createToken(tx, user.id)).token);
    }
    return made;
  });
  await db.close();
  return tokens;
}

export async function benchComments(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const tokens = await seedCommenters(dataDir, organizationId);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS });
  const call = async (method: string, url: string, who: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${who}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ id: string; pages: Array<{ id: string }> }>;
  };
  try {
    const space = await call('POST', `/orgs/${organizationId}/spaces`, token, { title: 'Discussed', template: { id: 'getting-started' } });
    const page = (await call('GET', `/spaces/${space.id}/content/pages`, token)).pages[0]!.id;
    const comments = `/spaces/${space.id}/comments`;
    // A realistic mix: one comment in three has replies, one in four reactions, one in five is resolved.
    for (let i = 0; i < 1000; i += 1) {
      const author = tokens[i % tokens.length]!;
      const comment = await call('POST', comments, author, {
        page,
        node: `block-${i % 40}`,
        body: { markdown: `Comment ${i}: is **this** paragraph right? See [the guide](https://example.com/${i}).` },
      });
      if (i % 3 === 0) {
        for (let r = 0; r < 1 + (i % 3); r += 1) await call('POST', `${comments}/${comment.id}/replies`, tokens[(i + r + 1) % tokens.length]!, { body: { markdown: `Reply ${r}` } });
      }
      if (i % 4 === 0) await call('PUT', `${comments}/${comment.id}`, tokens[(i + 5) % tokens.length]!, { addedReactions: ['👍', '🎉'] });
      if (i % 5 === 0) await call('PUT', `${comments}/${comment.id}`, token, { resolved: true });
    }
    const auth = { authorization: `Bearer ${tokens[0]}` };
    const base = `${server.url}/v1${comments}?targetPage=${page}`;
    const firstPage = await latency(base, auth, 300);
    figures['comments of a page holding 1,000, first page (limit 50): median ms (target ≤ 10)'] = fmt(firstPage.median);
    figures['… p95 ms'] = fmt(firstPage.p95);
    const all = await latency(`${base}&limit=1000`, auth, 100);
    figures['… all 1,000 in one answer (limit=1000): median ms'] = fmt(all.median);
    figures['… all 1,000 in one answer: p95 ms'] = fmt(all.p95);
    const documents = await latency(`${base}&format=document`, auth, 300);
    figures['… first page as Documents (format=document): median ms'] = fmt(documents.median);
  } finally {
    await server.stop();
  }
  return figures;
}
