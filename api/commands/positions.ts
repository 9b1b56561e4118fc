import { listChildPositions } from '../../storage/collections.js';
import type { Queryable } from '../../storage/db.js';
import { badRequest } from '../errors.js';

export type PositionRef = { type: 'space'; space: string } | { type: 'collection'; collection: string };
export interface Position {
  before?: PositionRef;
  after?: PositionRef;
}

const refId = (ref: PositionRef) => (ref.type === 'space' ? ref.space : ref.collection);

/**
 * Where an item lands among the children of `parentId`: before or after a sibling, or last.
 * Returns null when that is exactly where it already is (the move would change nothing).
 */
export async function resolvePosition(
  db: Queryable,
  organizationId: string,
  parentId: string | null,
  item: { kind: 'space' | 'collection'; id: string; parentId: string | null },
  position: Position | undefined,
): Promise<number | null> {
  const all = await listChildPositions(db, organizationId, parentId);
  const siblings = all.filter((child) => !(child.kind === item.kind && child.id === item.id));
  const samePlace = item.parentId === parentId;
  const ref = position?.before ?? position?.after;
  if (!ref) {
    if (samePlace && all[all.length - 1]?.id === item.id) return null;
    return (siblings[siblings.length - 1]?.position ?? 0) + 1;
  }
  if (position?.before && position.after) throw badRequest('Invalid position: give "before" or "after", not both');
  const index = siblings.findIndex((child) => child.kind === ref.type && child.id === refId(ref));
  if (index < 0) throw badRequest(`Invalid position: ${ref.type} ${refId(ref)} is not next to where the ${item.kind} goes`);
  const current = all.findIndex((child) => child.kind === item.kind && child.id === item.id);
  const target = siblings[index]!;
  if (position?.before) {
    if (samePlace && all[current + 1]?.id === target.id) return null;
    const previous = siblings[index - 1]?.position ?? target.position - 2;
    return (previous + target.position) / 2;
  }
  if (samePlace && all[current - 1]?.id === target.id) return null;
  const next = siblings[index + 1]?.position ?? target.position + 2;
  return (target.position + next) / 2;
}
