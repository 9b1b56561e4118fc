import { readInsightDays } from '../../storage/siteInsights.js';
import type { Queryable } from '../../storage/db.js';

/** What a site's readers did in the last `days` days, for the app's site page: each list its top ten. */
export interface InsightsSummary {
  days: number;
  views: number;
  pages: Array<{ space: string; page: string; path: string; views: number }>;
  searches: Array<{ query: string; searches: number; results: number }>;
  /** Searches and questions that found nothing: what the documentation lacks. */
  unanswered: Array<{ query: string; searches: number }>;
  referrers: Array<{ host: string; views: number }>;
  feedback: Array<{ page: string; space: string; path: string; text: string; times: number }>;
}

const top = <T>(entries: Map<string, T>, weight: (entry: T) => number) => [...entries.values()].sort((a, b) => weight(b) - weight(a)).slice(0, 10);

export async function siteInsightsSummary(db: Queryable, siteId: string, days = 30, now = Date.now()): Promise<InsightsSummary> {
  const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await readInsightDays(db, siteId, from, new Date(now).toISOString().slice(0, 10));
  const pages = new Map<string, InsightsSummary['pages'][number]>();
  const searches = new Map<string, InsightsSummary['searches'][number]>();
  const unanswered = new Map<string, InsightsSummary['unanswered'][number]>();
  const referrers = new Map<string, InsightsSummary['referrers'][number]>();
  const feedback = new Map<string, InsightsSummary['feedback'][number]>();
  let views = 0;
  for (const row of rows) {
    if (row.eventType === 'page_view') {
      views += row.events;
      const page = pages.get(`${row.space}:${row.page}`) ?? { space: row.space, page: row.page, path: row.urlPath, views: 0 };
      page.views += row.events;
      pages.set(`${row.space}:${row.page}`, page);
      if (row.detail) {
        const referrer = referrers.get(row.detail) ?? { host: row.detail, views: 0 };
        referrer.views += row.events;
        referrers.set(row.detail, referrer);
      }
    } else if ((row.eventType === 'search_type_query' || row.eventType === 'ask_question') && row.detail) {
      const search = searches.get(row.detail) ?? { query: row.detail, searches: 0, results: 0 };
      search.searches += row.events;
      search.results = Math.max(search.results, row.results);
      searches.set(row.detail, search);
      if (row.results === 0) {
        const missed = unanswered.get(row.detail) ?? { query: row.detail, searches: 0 };
        missed.searches += row.events;
        unanswered.set(row.detail, missed);
      }
    } else if (row.eventType === 'agent_feedback' && row.detail) {
      const key = `${row.page}:${row.detail}`;
      const entry = feedback.get(key) ?? { page: row.page, space: row.space, path: row.urlPath, text: row.detail, times: 0 };
      entry.times += row.events;
      feedback.set(key, entry);
    }
  }
  return {
    days,
    views,
    pages: top(pages, (entry) => entry.views),
    searches: top(searches, (entry) => entry.searches),
    unanswered: top(unanswered, (entry) => entry.searches),
    referrers: top(referrers, (entry) => entry.views),
    feedback: top(feedback, (entry) => entry.times),
  };
}
