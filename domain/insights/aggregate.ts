import { readInsightDays, type InsightCount } from '../../storage/siteInsights.js';
import type { Queryable } from '../../storage/db.js';
import { invalidInput } from '../common/errors.js';

/** The columns Quire's day counts can answer (0.202.0's SiteInsightsQueryEventsColumn, in part). */
const kept = ['datetime', 'eventType', 'page', 'siteSpace', 'urlPath', 'referrerDomain', 'eventSearchQuery', 'eventsCount'] as const;
type KeptColumn = (typeof kept)[number];

export interface InsightColumn {
  column: string;
  interval?: string;
}

export interface InsightFilter {
  column: string;
  values: unknown[];
  operator?: string;
}

export interface InsightQuery {
  select?: InsightColumn[];
  where?: InsightFilter[];
  groupBy?: InsightColumn[];
  order?: { by: InsightColumn; direction: 'asc' | 'desc' };
  range: string | { from: string; to: string };
  limit?: number;
}

/** Days each preset covers: counts are per day, so the last 24 hours are today and yesterday. */
const presets: Record<string, number> = { last24Hours: 2, last7Days: 7, last30Days: 30, last3Months: 92, lastYear: 366 };
const searchTypes = new Set(['search_type_query', 'search_open_result', 'ask_question']);

function column(requested: InsightColumn, where: string): KeptColumn {
  if ((kept as readonly string[]).includes(requested.column)) {
    if (requested.column === 'datetime' && requested.interval === 'hour') throw invalidInput(`${where}: Quire counts events per day; "datetime" takes the interval day, week or month`);
    return requested.column as KeptColumn;
  }
  if (['sessionsCount', 'visitorsCount'].includes(requested.column) || requested.column.startsWith('visitor') || requested.column.startsWith('utm')) {
    throw invalidInput(`${where}: "${requested.column}" is not kept: Quire counts events without identifying or describing visitors (docs/insights.md)`);
  }
  throw invalidInput(`${where}: "${requested.column}" is not a column Quire keeps; it keeps ${kept.join(', ')}`);
}

/** The value a row has in a column (datetime: the start of its day, week or month). */
function valueOf(row: InsightCount, name: KeptColumn, interval = 'day'): unknown {
  switch (name) {
    case 'datetime': {
      const day = new Date(`${row.day}T00:00:00.000Z`);
      if (interval === 'week') day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
      if (interval === 'month') day.setUTCDate(1);
      return day.toISOString();
    }
    case 'eventType':
      return row.eventType;
    case 'page':
      return row.page ? { page: row.page, space: row.space } : null;
    case 'siteSpace':
      return row.siteSpace || null;
    case 'urlPath':
      return row.urlPath;
    case 'referrerDomain':
      return row.eventType === 'page_view' ? row.detail : '';
    case 'eventSearchQuery':
      return searchTypes.has(row.eventType) ? row.detail : '';
    case 'eventsCount':
      return row.events;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function matches(row: InsightCount, filter: InsightFilter, index: number): boolean {
  const name = column(filter, `"where[${index}]"`);
  const value = valueOf(row, name);
  const operator = filter.operator ?? 'in';
  if (operator === 'in') return filter.values.some((wanted) => same(wanted, value));
  if (operator === 'notIn') return !filter.values.some((wanted) => same(wanted, value));
  const bound = filter.values[0];
  const [a, b] = typeof value === 'number' ? [value, Number(bound)] : [String(value), String(bound)];
  if (operator === 'greaterThan') return a > b;
  if (operator === 'greaterThanOrEqual') return a >= b;
  if (operator === 'lessThan') return a < b;
  if (operator === 'lessThanOrEqual') return a <= b;
  throw invalidInput(`"where[${index}].operator" ${operator} is not one of in, notIn, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual`);
}

/** The days a range covers, as YYYY-MM-DD, inclusive. */
function daysOf(range: InsightQuery['range'], now: number): { from: string; to: string } {
  if (typeof range === 'string') {
    const days = presets[range];
    if (!days) throw invalidInput(`"range" ${range} is not one of ${Object.keys(presets).join(', ')}`);
    return { from: new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10), to: new Date(now).toISOString().slice(0, 10) };
  }
  if (Date.parse(range.from) > Date.parse(range.to)) throw invalidInput('"range.from" must not be after "range.to"');
  return { from: new Date(range.from).toISOString().slice(0, 10), to: new Date(range.to).toISOString().slice(0, 10) };
}

/**
 * aggregateSiteEvents over the day counts: rows filtered, grouped and summed (eventsCount), then
 * ordered and cut; answered as upstream's columns of values.
 */
export async function aggregateInsights(db: Queryable, siteId: string, query: InsightQuery, now = Date.now()): Promise<{ columns: Array<{ column: string; values: unknown[] }> }> {
  const { from, to } = daysOf(query.range, now);
  const groupBy = query.groupBy ?? [];
  const groupColumns = groupBy.map((requested, index) => ({ name: column(requested, `"groupBy[${index}]"`), interval: requested.interval }));
  const select = query.select ?? [...groupBy, { column: 'eventsCount' }];
  const selected = select.map((requested, index) => ({ name: column(requested, `"select[${index}]"`), interval: requested.interval }));
  for (const [index, wanted] of selected.entries()) {
    if (wanted.name !== 'eventsCount' && !groupColumns.some((group) => group.name === wanted.name))
      throw invalidInput(`"select[${index}]": "${wanted.name}" must be in "groupBy" too, or be eventsCount`);
  }
  const rows = (await readInsightDays(db, siteId, from, to)).filter((row) => (query.where ?? []).every((filter, index) => matches(row, filter, index)));
  const groups = new Map<string, { values: unknown[]; events: number }>();
  for (const row of rows) {
    const values = groupColumns.map((group) => valueOf(row, group.name, group.interval));
    const key = JSON.stringify(values);
    const group = groups.get(key) ?? { values, events: 0 };
    group.events += row.events;
    groups.set(key, group);
  }
  const valueIn = (group: { values: unknown[]; events: number }, name: KeptColumn) => (name === 'eventsCount' ? group.events : group.values[groupColumns.findIndex((entry) => entry.name === name)]);
  const orderBy = query.order ? column(query.order.by, '"order.by"') : groupColumns.some((group) => group.name === 'datetime') ? 'datetime' : 'eventsCount';
  if (orderBy !== 'eventsCount' && !groupColumns.some((group) => group.name === orderBy)) throw invalidInput(`"order.by": "${orderBy}" must be in "groupBy" too, or be eventsCount`);
  const direction = query.order?.direction ?? (orderBy === 'datetime' ? 'asc' : 'desc');
  const compare = (a: unknown, b: unknown) => {
    const [x, y] = [typeof a === 'number' ? a : JSON.stringify(a ?? ''), typeof b === 'number' ? b : JSON.stringify(b ?? '')];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  // Ties broken by the groups' own values: the same counts always answer in the same order.
  const ordered = [...groups.values()]
    .sort((a, b) => (direction === 'asc' ? 1 : -1) * compare(valueIn(a, orderBy), valueIn(b, orderBy)) || compare(JSON.stringify(a.values), JSON.stringify(b.values)))
    .slice(0, query.limit ?? 1000);
  return { columns: selected.map((wanted) => ({ column: wanted.name, values: ordered.map((group) => valueIn(group, wanted.name)) })) };
}
