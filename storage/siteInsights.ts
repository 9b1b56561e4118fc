import type { Queryable, Transaction } from './db.js';

/** One count of the day: a site's events of one type about one thing. */
export interface InsightCount {
  siteId: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  eventType: string;
  siteSpace: string;
  space: string;
  page: string;
  urlPath: string;
  /** What the event was about beyond the page: a search's words, a referrer's domain, a rating, a link, an agent's feedback. */
  detail: string;
  /** Pages a search or question found; -1 for other events. */
  results: number;
  events: number;
}

/** Adds the counts to the days' rows, in one transaction: a batch is counted whole or not at all. */
export async function addInsightCounts(db: Transaction, counts: InsightCount[]): Promise<void> {
  for (const count of counts) {
    await db.run(
      `INSERT INTO site_insight_days (site_id, day, event_type, site_space, space, page, url_path, detail, results, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (site_id, day, event_type, site_space, space, page, url_path, detail, results) DO UPDATE SET events = site_insight_days.events + excluded.events`,
      [count.siteId, count.day, count.eventType, count.siteSpace, count.space, count.page, count.urlPath, count.detail, count.results, count.events],
    );
  }
}

/** A site's day rows between two days (inclusive), of these event types (all when empty). */
export async function readInsightDays(db: Queryable, siteId: string, from: string, to: string, eventTypes: string[] = []): Promise<InsightCount[]> {
  const rows = await db.all<{ day: string; event_type: string; site_space: string; space: string; page: string; url_path: string; detail: string; results: number; events: number }>(
    `SELECT day, event_type, site_space, space, page, url_path, detail, results, events FROM site_insight_days
     WHERE site_id = ? AND day >= ? AND day <= ?${eventTypes.length ? ' AND event_type IN (SELECT value FROM json_each(?))' : ''}`,
    [siteId, from, to, ...(eventTypes.length ? [JSON.stringify(eventTypes)] : [])],
  );
  return rows.map((row) => ({
    siteId,
    day: row.day,
    eventType: row.event_type,
    siteSpace: row.site_space,
    space: row.space,
    page: row.page,
    urlPath: row.url_path,
    detail: row.detail,
    results: Number(row.results),
    events: Number(row.events),
  }));
}

/** A day's readers of one segment of a site: events, and sketches of its visitors and sessions. */
export interface SegmentDay {
  siteId: string;
  day: string;
  /** The segment's claims, as canonical JSON. */
  segment: string;
  events: number;
  visitors: Uint8Array;
  sessions: Uint8Array;
}

/** Register by register, the larger: two sketches' union. */
export function unionOf(a: Uint8Array, b: Uint8Array): Uint8Array {
  const union = new Uint8Array(Math.max(a.length, b.length));
  for (let index = 0; index < union.length; index += 1) union[index] = Math.max(a[index] ?? 0, b[index] ?? 0);
  return union;
}

/** Adds the days' counts to their rows, the sketches merged: read and written in the caller's transaction. */
export async function addSegmentDays(tx: Transaction, days: SegmentDay[]): Promise<void> {
  for (const day of days) {
    const held = await tx.get<{ events: number | string; visitors: Buffer; sessions: Buffer }>(
      'SELECT events, visitors, sessions FROM site_segment_days WHERE site_id = ? AND day = ? AND segment = ?',
      [day.siteId, day.day, day.segment],
    );
    const visitors = Buffer.from(held ? unionOf(held.visitors, day.visitors) : day.visitors);
    const sessions = Buffer.from(held ? unionOf(held.sessions, day.sessions) : day.sessions);
    await tx.run(
      `INSERT INTO site_segment_days (site_id, day, segment, events, visitors, sessions) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (site_id, day, segment) DO UPDATE SET events = site_segment_days.events + excluded.events, visitors = excluded.visitors, sessions = excluded.sessions`,
      [day.siteId, day.day, day.segment, day.events, visitors, sessions],
    );
  }
}

/** A site's segment rows from `from` to `to` (days, inclusive). */
export async function readSegmentDays(db: Queryable, siteId: string, from: string, to: string): Promise<SegmentDay[]> {
  const rows = await db.all<{ day: string; segment: string; events: number | string; visitors: Buffer; sessions: Buffer }>(
    'SELECT day, segment, events, visitors, sessions FROM site_segment_days WHERE site_id = ? AND day >= ? AND day <= ?',
    [siteId, from, to],
  );
  return rows.map((row) => ({ siteId, day: row.day, segment: row.segment, events: Number(row.events), visitors: new Uint8Array(row.visitors), sessions: new Uint8Array(row.sessions) }));
}
