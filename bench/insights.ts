// Issue 54's tracking figure: readers' page views sent as the sites' script sends them (one
// beacon each to <site>/~insights), by 20 concurrent clients for 10 s against one node, then
// checked counted: the events a second a node sustains, and that none was lost.
import { fmt, quireWithOrganization } from './lib.js';

export async function benchInsights(): Promise<Record<string, string>> {
  const { organizationId, server, api } = await quireWithOrganization();
  try {
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: 'Read', template: { id: 'getting-started' } });
    const site = await api('POST', `/orgs/${organizationId}/sites`, { title: 'Read site', spaces: [space.id], visibility: 'public' });
    const published = await api('POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
    const pages = (await api('GET', `/spaces/${space.id}/content/pages`)).pages as Array<{ id: string }>;
    const beacon = `${(published.urls as { published: string }).published}~insights`;
    let sent = 0;
    const until = Date.now() + 10_000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, async (_, client) => {
        for (let i = 0; Date.now() < until; i += 1) {
          const page = pages[(client + i) % pages.length]!.id;
          const response = await fetch(beacon, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'page_view', space: space.id, page, path: '/p' }) });
          if (response.status !== 204) throw new Error(`the beacon answered ${response.status}`);
          sent += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const counted = await api('POST', `/orgs/${organizationId}/sites/${site.id}/insights/events/aggregate`, { range: 'last24Hours', groupBy: [{ column: 'eventType' }] });
    const views = (counted.columns as Array<{ column: string; values: number[] }>).find((column) => column.column === 'eventsCount')?.values[0] ?? 0;
    return {
      'page views sent (20 clients, 10 s)': String(sent),
      'events per second sustained': fmt(sent / seconds, 0),
      'counted afterwards (aggregateSiteEvents)': `${views} (${views === sent ? 'all' : `${sent - views} missing`})`,
    };
  } finally {
    await server.stop();
  }
}
