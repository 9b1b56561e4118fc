import { addInsightCounts, addSegmentDays, unionOf, type InsightCount, type SegmentDay } from '../../storage/siteInsights.js';
import { segmentDaysOf, type SegmentVisit } from './segments.js';
import type { Database } from '../../storage/db.js';
import { log } from '../common/log.js';

/** How long counts wait in memory before they are written together. */
const flushAfterMs = 1000;
/** Past this many distinct rows waiting, they are written at once. */
const flushAtRows = 5000;
/**
 * Past this many distinct rows waiting (the database falling behind), counts for new rows are
 * dropped, and those for rows already waiting still add up: memory stays bounded whatever comes.
 */
const maxWaitingRows = 20_000;

/**
 * Readers' events counted in memory and written a second later, many in one transaction: a busy
 * site's thousand page views a second are a few row updates a second, not a thousand commits. A
 * process that dies loses at most that second of counts (docs/insights.md); one that stops
 * writes them first (close).
 */
export class InsightsRecorder {
  private waiting = new Map<string, InsightCount>();
  private visits = new Map<string, SegmentDay>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(private readonly db: Database) {}

  record(counts: InsightCount[]): void {
    for (const count of counts) {
      const key = JSON.stringify([count.siteId, count.day, count.eventType, count.siteSpace, count.space, count.page, count.urlPath, count.detail, count.results]);
      const held = this.waiting.get(key);
      if (held) held.events += count.events;
      else if (this.waiting.size < maxWaitingRows) this.waiting.set(key, { ...count });
      else if (this.dropped++ === 0) log.warn('site insights are written more slowly than they come: counts of new rows are dropped until they catch up');
    }
    if (this.waiting.size >= flushAtRows) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), flushAfterMs).unref();
  }

  /** Readers' visits for the visitor segments: sketched at once (no id waits in memory), written with the counts. */
  recordVisits(visits: SegmentVisit[]): void {
    for (const day of segmentDaysOf(visits)) {
      const key = JSON.stringify([day.siteId, day.day, day.segment]);
      const held = this.visits.get(key);
      if (held) this.visits.set(key, { ...held, events: held.events + day.events, visitors: unionOf(held.visitors, day.visitors), sessions: unionOf(held.sessions, day.sessions) });
      else if (this.visits.size < maxWaitingRows) this.visits.set(key, day);
    }
    this.timer ??= setTimeout(() => void this.flush(), flushAfterMs).unref();
  }

  /** Writes what waits; resolves once it (and any write before it) is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const counts = [...this.waiting.values()];
    const segmentDays = [...this.visits.values()];
    this.waiting = new Map();
    this.visits = new Map();
    this.dropped = 0;
    if (counts.length === 0 && segmentDays.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.db
        .transaction(async (tx) => {
          await addInsightCounts(tx, counts);
          await addSegmentDays(tx, segmentDays);
        })
        .catch((error: Error) => {
          // Counts are not worth failing a reader for: logged, and these ones lost.
          log.warn('site insights could not be written', { rows: counts.length, error: error.message });
        }),
    );
    return this.writing;
  }

  close(): Promise<void> {
    return this.flush();
  }
}
