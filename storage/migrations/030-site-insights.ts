import type { Migration } from './index.js';

export const siteInsights: Migration = {
  version: 30,
  name: 'site-insights',
  // What readers of a site do, counted per day (trackEventsInSiteById, the sites' own script,
  // their search and question pages): one row per site, day, event type and what the event was
  // about, its count growing. No visitor is identified: no ids, addresses or agents are kept.
  // `results`: how many pages a search or question found (-1: not a search).
  sql: `
CREATE TABLE IF NOT EXISTS site_insight_days (
  site_id TEXT NOT NULL,
  day TEXT NOT NULL,
  event_type TEXT NOT NULL,
  site_space TEXT NOT NULL,
  space TEXT NOT NULL,
  page TEXT NOT NULL,
  url_path TEXT NOT NULL,
  detail TEXT NOT NULL,
  results INTEGER NOT NULL,
  events INTEGER NOT NULL,
  PRIMARY KEY (site_id, day, event_type, site_space, space, page, url_path, detail, results)
);
`,
};
