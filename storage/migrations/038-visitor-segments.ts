import type { Migration } from './index.js';

export const visitorSegments: Migration = {
  version: 38,
  name: 'visitor-segments',
  // Readers of a site grouped by the claims its adaptive schema declares (listSiteVisitorSegments),
  // per day: events counted, visitors and sessions as HyperLogLog sketches (256 one-byte
  // registers), which hold no visitor's id and can't give one back.
  sql: `
CREATE TABLE IF NOT EXISTS site_segment_days (
  site_id TEXT NOT NULL,
  day TEXT NOT NULL,
  segment TEXT NOT NULL,
  events INTEGER NOT NULL,
  visitors BLOB NOT NULL,
  sessions BLOB NOT NULL,
  PRIMARY KEY (site_id, day, segment)
);
`,
};
