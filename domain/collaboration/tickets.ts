import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ContentDeps } from '../common/deps.js';
import { instanceKey } from '../common/instanceKeys.js';

/**
 * Who may join which page's room: minted by the edit page (after the API's policy for editing
 * the space), checked when the connection opens. A connection carries no cookie check of its
 * own beyond its Origin; the ticket is what a page of this site alone has.
 */
export interface CollabTicket {
  userId: string;
  spaceId: string;
  /** Null: the space's primary branch (live edits). */
  changeRequestId: string | null;
  pageId: string;
  /** Until when it opens a connection (ms since the epoch). */
  expires: number;
}

const lifetimeMs = 10 * 60_000;

export async function collabTicket(deps: Pick<ContentDeps, 'db' | 'dataDir'>, place: Omit<CollabTicket, 'expires'>, now = Date.now()): Promise<string> {
  const body = Buffer.from(JSON.stringify({ ...place, expires: now + lifetimeMs })).toString('base64url');
  return `${body}.${await signature(deps, body)}`;
}

/** The ticket's place, or undefined when it is forged, damaged or expired. */
export async function readCollabTicket(deps: Pick<ContentDeps, 'db' | 'dataDir'>, ticket: string, now = Date.now()): Promise<CollabTicket | undefined> {
  const [body, signed] = ticket.split('.');
  if (!body || !signed) return undefined;
  const expected = Buffer.from(await signature(deps, body));
  const given = Buffer.from(signed);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const place = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CollabTicket;
  return place.expires > now ? place : undefined;
}

async function signature(deps: Pick<ContentDeps, 'db' | 'dataDir'>, body: string): Promise<string> {
  return createHmac('sha256', await instanceKey(deps, 'collab-tickets'))
    .update(body)
    .digest('base64url');
}
