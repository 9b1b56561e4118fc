import type { InsightCount } from '../../storage/siteInsights.js';
import { invalidInput } from '../common/errors.js';

/** The event types of 0.202.0's SiteInsightsEventType, which a site may report. */
export const insightEventTypes = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;
export type InsightEventType = (typeof insightEventTypes)[number];

/** One reader's event, as Quire keeps it: where, what about, and when; nothing about who. */
export interface SiteEvent {
  type: InsightEventType;
  /** The page's URL on the site (its path is kept), if known. */
  url?: string;
  siteSpace?: string | null;
  space?: string | null;
  page?: string | null;
  /** A search's words, a referrer, a rating, a link's target, an agent's feedback (see detailOf). */
  detail?: string;
  /** Pages a search or a question found. */
  results?: number;
  /** When it happened; within 5 minutes of now (upstream's rule), now if not given. */
  timestamp?: string;
}

const maxSkewMs = 5 * 60_000;

/** Search words as counted: case and spacing folded, so "Install " and "install" are one search. */
export const searchWords = (query: string) => query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 100);

/** A referrer as counted: its host alone (never its path, which may name a person). */
export function referrerHost(referrer: string | null | undefined): string {
  if (!referrer) return '';
  try {
    return new URL(referrer).hostname.toLowerCase().slice(0, 253);
  } catch {
    return '';
  }
}

function pathOf(url: string | undefined): string {
  if (!url) return '';
  try {
    return new URL(url, 'http://site.invalid').pathname.slice(0, 512);
  } catch {
    return '';
  }
}

/** The day rows these events add to, merged: one per site, day and what each event was about. */
export function countsOf(siteId: string, events: SiteEvent[], now = Date.now()): InsightCount[] {
  const counts = new Map<string, InsightCount>();
  for (const [index, event] of events.entries()) {
    const at = event.timestamp === undefined ? now : Date.parse(event.timestamp);
    if (!Number.isFinite(at) || Math.abs(at - now) > maxSkewMs) throw invalidInput(`"events[${index}].timestamp" must be within 5 minutes of now`);
    const count: InsightCount = {
      siteId,
      day: new Date(at).toISOString().slice(0, 10),
      eventType: event.type,
      siteSpace: event.siteSpace ?? '',
      space: event.space ?? '',
      page: event.page ?? '',
      urlPath: pathOf(event.url),
      detail: (event.detail ?? '').slice(0, 2048),
      results: event.results ?? -1,
      events: 1,
    };
    const key = JSON.stringify([count.day, count.eventType, count.siteSpace, count.space, count.page, count.urlPath, count.detail, count.results]);
    const held = counts.get(key);
    if (held) held.events += 1;
    else counts.set(key, count);
  }
  return [...counts.values()];
}
