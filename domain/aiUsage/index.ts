import type { Queryable } from '../../storage/db.js';
import { listAIUsage } from '../../storage/aiUsage.js';
import { invalidInput } from '../common/errors.js';

/** What an organization's features asked of the chat model (docs/ask.md, "AI usage"). */

export type UsageInterval = 'day' | 'week' | 'month' | 'year';

/** 1 credit = 1,000 tokens the model reported. */
export const tokensPerCredit = 1000;
/** Most buckets one report holds. */
export const maxPeriods = 1000;

export interface UsageReport {
  from: string;
  to: string;
  periods: Array<{ date: string; credits: number; features: Array<{ feature: string; credits: number; creditsPercent: number }> }>;
}

const dayMs = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The UTC date a calendar bucket holding `day` starts on; weeks start on Monday. */
function bucketStart(day: string, interval: UsageInterval): string {
  if (interval === 'year') return `${day.slice(0, 4)}-01-01`;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  if (interval === 'day') return day;
  const time = Date.parse(`${day}T00:00:00Z`);
  return dayOf(time - ((new Date(time).getUTCDay() + 6) % 7) * dayMs);
}

function nextBucket(start: string, interval: UsageInterval): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + 1);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7);
  else if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString().slice(0, 10);
}

const rounded = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The organization's AI usage from `from` (included) to `to` (excluded, capped at now; `to` before
 * `from` is a 400), in calendar buckets of `interval`, each feature's credits and share. Usage is
 * kept per UTC day, so a bucket counts the whole days of the range it holds.
 */
export async function aiUsageReport(db: Queryable, organizationId: string, range: { from: string; to: string }, interval: UsageInterval, now = Date.now()): Promise<UsageReport> {
  const from = Date.parse(range.from);
  if (Date.parse(range.to) < from) throw invalidInput(`"to" must not be before "from"`);
  // An empty range (`to` equal to `from`, or all of it still to come) holds no period.
  const to = Math.max(from, Math.min(Date.parse(range.to), now));
  if (to === from) return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), periods: [] };
  const fromDay = dayOf(from);
  const lastDay = dayOf(to - 1);
  const starts: string[] = [];
  for (let start = bucketStart(fromDay, interval); start <= lastDay; start = nextBucket(start, interval)) {
    starts.push(start);
    if (starts.length > maxPeriods) throw invalidInput(`The range holds more than ${maxPeriods} periods of a ${interval}: ask for a longer interval or a shorter range`);
  }
  const rows = await listAIUsage(db, organizationId, fromDay, lastDay);
  const periods = starts.map((start) => {
    const byFeature = new Map<string, number>();
    for (const row of rows) if (bucketStart(row.day, interval) === start) byFeature.set(row.feature, (byFeature.get(row.feature) ?? 0) + row.tokens);
    const total = [...byFeature.values()].reduce((sum, tokens) => sum + tokens, 0);
    const features = [...byFeature]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([feature, tokens]) => ({ feature, credits: rounded(tokens / tokensPerCredit, 3), creditsPercent: total ? rounded((tokens / total) * 100, 1) : 0 }));
    return { date: start, credits: rounded(total / tokensPerCredit, 3), features };
  });
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), periods };
}
