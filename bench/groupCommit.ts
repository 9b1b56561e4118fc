// Concurrent one-page batches: 20 writers on one space (one change request each, one repository
// lock between them) against 20 writers on 20 spaces. With group commit, batches waiting on one
// repository's lock share one round of syncs; the figures show what that leaves of the gap.
import { body, pageNumber, writePages } from './changeRequests.js';
import { fmt, quireWithOrganization } from './lib.js';

const writers = 20;
const batchesPerWriter = 15;
const pages = 100;

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((samples.length * p) / 100))]!;

export async function benchGroupCommit(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, organizationId, server, api } = await quireWithOrganization();
  try {
    const newSpace = async (title: string) => {
      const space = await api('POST', `/orgs/${organizationId}/spaces`, { title, empty: true });
      await writePages(dataDir, space.id as string, pages);
      return space.id as string;
    };
    const changeRequest = async (spaceId: string, subject: string) => (await api('POST', `/spaces/${spaceId}/change-requests`, { subject })).id as string;
    const shared = await newSpace('Shared');
    const onShared = await Promise.all(Array.from({ length: writers }, (_, i) => changeRequest(shared, `Writer ${i}`)).map(async (id) => ({ space: shared, changeRequest: await id })));
    const own = [];
    for (let i = 0; i < writers; i += 1) {
      const space = await newSpace(`Own ${i}`);
      own.push({ space, changeRequest: await changeRequest(space, `Writer ${i}`) });
    }

    /** Every writer posts its batches back to back, all writers at once; each batch's time and the whole run's. */
    const groupCounts = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
      return { groups: value('quire_commit_groups_total'), batches: value('quire_commit_group_batches_total') };
    };
    const run = async (targets: Array<{ space: string; changeRequest: string }>, round: string) => {
      const before = await groupCounts();
      const times: number[] = [];
      const started = performance.now();
      await Promise.all(
        targets.map(async ({ space, changeRequest }, writer) => {
          for (let i = 0; i < batchesPerWriter; i += 1) {
            const n = pageNumber((writer * 4 + i) % 90);
            const before = performance.now();
            await api('POST', `/spaces/${space}/change-requests/${changeRequest}/content`, {
              changes: [{ operation: 'update_page', page: `p${n}`, document: { markdown: body(n, `${round} ${writer}.${i}. `) } }],
            });
            times.push(performance.now() - before);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const after = await groupCounts();
      return { perSecond: times.length / seconds, p50: percentile(times, 50), p99: percentile(times, 99), perGroup: (after.batches - before.batches) / (after.groups - before.groups) };
    };
    await run(onShared, 'Warm-up');
    await run(own, 'Warm-up');
    const one = await run(onShared, 'Measured');
    const many = await run(own, 'Measured');
    figures[`${writers} writers on one space (one change request each): batches/s`] = fmt(one.perSecond, 1);
    figures['… batch p50 / p99 ms'] = `${fmt(one.p50, 1)} / ${fmt(one.p99, 1)}`;
    figures['… batches per group commit (one round of syncs)'] = fmt(one.perGroup, 2);
    figures[`${writers} writers on ${writers} spaces: batches/s`] = fmt(many.perSecond, 1);
    figures['… batch p50 / p99 ms '] = `${fmt(many.p50, 1)} / ${fmt(many.p99, 1)}`;
    figures['one space / many spaces, batches/s'] = fmt(one.perSecond / many.perSecond, 2);
  } finally {
    await server.stop();
  }
  return figures;
}
