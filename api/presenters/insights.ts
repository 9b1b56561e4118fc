import type { VisitorSegment } from '../../domain/insights/index.js';

/** `SiteInsightsVisitorSegment`. */
export function presentVisitorSegment(segment: VisitorSegment) {
  return { title: segment.title, claims: segment.claims, events: segment.events, visitors: segment.visitors, sessions: segment.sessions };
}
