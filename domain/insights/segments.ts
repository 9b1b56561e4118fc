import { createHash } from 'node:crypto';
import type { Queryable } from '../../storage/db.js';
import { readSegmentDays, unionOf, type SegmentDay } from '../../storage/siteInsights.js';
import { findAdaptiveSchema } from '../../storage/sites.js';
import { declaredClaims } from '../sites/index.js';

// Readers of a site grouped by their claims (listSiteVisitorSegments; docs/insights.md, "Visitor
// segments"). Only claims the site's adaptive schema declares, with short plain values, make a
// segment; anything else a visitor carries (an email, a name) is never kept. Visitors and
// sessions are counted with HyperLogLog sketches: each id is hashed to one of 256 registers,
// which keeps only the longest run of zero bits seen there, so no id is kept or recoverable.

const registers = 256;

/** A new, empty sketch. */
export const emptySketch = () => new Uint8Array(registers);

/** Counts `id` into the sketch. */
export function addToSketch(sketch: Uint8Array, id: string): void {
  const hash = createHash('sha256').update(id).digest();
  const register = hash[0]!;
  // The rank: where the first 1 bit is in the next 32 bits (1-based), 33 when they are all zero.
  const rest = hash.readUInt32BE(1);
  const rank = rest === 0 ? 33 : Math.clz32(rest) + 1;
  if (rank > sketch[register]!) sketch[register] = rank;
}

/** How many distinct ids the sketch has seen: exact-looking for a few (linear counting), about 6.5 % off for many. */
export function estimate(sketch: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (const rank of sketch) {
    sum += 2 ** -rank;
    if (rank === 0) zeros += 1;
  }
  const alpha = 0.7213 / (1 + 1.079 / registers);
  const raw = (alpha * registers * registers) / sum;
  if (raw <= 2.5 * registers && zeros > 0) return Math.round(registers * Math.log(registers / zeros));
  return Math.round(raw);
}

type Claims = Record<string, unknown>;
const plainValue = (value: unknown) => typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= 64);

/** The claims a segment keeps: those the adaptive schema declares, with a boolean, number or short string value, nested as given. */
export function segmentClaims(claims: Claims | undefined, adaptiveSchema: Record<string, unknown> | undefined): Claims {
  const kept: Claims = {};
  if (!claims || !adaptiveSchema) return kept;
  for (const claim of declaredClaims(adaptiveSchema)) {
    let value: unknown = claims;
    for (const part of claim.path) value = value && typeof value === 'object' && !Array.isArray(value) ? (value as Claims)[part] : undefined;
    if (!plainValue(value)) continue;
    let into = kept;
    for (const part of claim.path.slice(0, -1)) into = (into[part] ??= {}) as Claims;
    into[claim.path[claim.path.length - 1]!] = value;
  }
  return kept;
}

/** Claims as one canonical string: keys sorted at every level. */
export function canonicalClaims(claims: Claims): string {
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sorted((value as Claims)[key])]),
        )
      : value;
  return JSON.stringify(sorted(claims));
}

/** One reader's event, for the segments: who (ids never kept), in which session, with which kept claims. */
export interface SegmentVisit {
  siteId: string;
  day: string;
  claims: Claims;
  visitor: string;
  session: string;
}

/** The visits as day rows of their segments: events counted, visitors and sessions sketched. */
export function segmentDaysOf(visits: SegmentVisit[]): SegmentDay[] {
  const days = new Map<string, SegmentDay>();
  for (const visit of visits) {
    const segment = canonicalClaims(visit.claims);
    const key = JSON.stringify([visit.siteId, visit.day, segment]);
    let row = days.get(key);
    if (!row) days.set(key, (row = { siteId: visit.siteId, day: visit.day, segment, events: 0, visitors: emptySketch(), sessions: emptySketch() }));
    row.events += 1;
    addToSketch(row.visitors, `${visit.siteId}:${visit.visitor}`);
    addToSketch(row.sessions, `${visit.siteId}:${visit.session}`);
  }
  return [...days.values()];
}

/** A segment's title: its claims as `name: value`, or "All readers" for none. */
function titleOf(claims: Claims, prefix = ''): string[] {
  return Object.entries(claims).flatMap(([name, value]) => (value && typeof value === 'object' ? titleOf(value as Claims, `${prefix}${name}.`) : [`${prefix}${name}: ${String(value)}`]));
}

export interface VisitorSegment {
  title: string;
  claims: Claims;
  events: number;
  visitors: number;
  sessions: number;
}

/** The site's segments over the last `days` days, the most active first: distinct visitors and sessions over the whole range. */
export async function visitorSegments(db: Queryable, siteId: string, days = 30, now = Date.now()): Promise<VisitorSegment[]> {
  const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(now).toISOString().slice(0, 10);
  const bySegment = new Map<string, { events: number; visitors: Uint8Array; sessions: Uint8Array }>();
  for (const row of await readSegmentDays(db, siteId, from, to)) {
    const held = bySegment.get(row.segment);
    bySegment.set(row.segment, held ? { events: held.events + row.events, visitors: unionOf(held.visitors, row.visitors), sessions: unionOf(held.sessions, row.sessions) } : row);
  }
  return [...bySegment]
    .map(([segment, counts]) => {
      const claims = JSON.parse(segment) as Claims;
      const title = titleOf(claims).join(', ') || 'All readers';
      return { title, claims, events: counts.events, visitors: estimate(counts.visitors), sessions: estimate(counts.sessions) };
    })
    .sort((a, b) => b.events - a.events || a.title.localeCompare(b.title));
}

/** What an event says of its reader: the ids a renderer gives them, the claims they carry, when. */
export interface ReaderOfEvent {
  visitorId: string;
  sessionId: string;
  claims?: Record<string, unknown>;
  timestamp?: string;
}

/** Visits of the site's readers, their claims cut down to what the site's adaptive schema declares. */
export async function siteVisitsOf(db: Queryable, siteId: string, readers: ReaderOfEvent[], now = Date.now()): Promise<SegmentVisit[]> {
  if (readers.length === 0) return [];
  const schema = readers.some((reader) => reader.claims) ? (await findAdaptiveSchema(db, siteId))?.jsonSchema : undefined;
  return readers.map((reader) => ({
    siteId,
    day: new Date(reader.timestamp ? Date.parse(reader.timestamp) : now).toISOString().slice(0, 10),
    claims: segmentClaims(reader.claims, schema),
    visitor: reader.visitorId,
    session: reader.sessionId,
  }));
}
