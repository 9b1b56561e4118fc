import { listChildPositions, renumberChildren } from '../../storage/collections.js';
import type { Transaction } from '../../storage/db.js';
import { invalidInput } from './errors.js';

/** A sibling: its type, and its id under the key of that type (`space` or `collection`). */
export interface PositionRef {
  type: 'space' | 'collection';
  space?: string;
  collection?: string;
}
export interface Position {
  before?: PositionRef;
  after?: PositionRef;
}

function refId(ref: PositionRef): string {
  const id = ref.type === 'space' ? ref.space : ref.collection;
  if (!id) throw invalidInput(`Invalid position: a ${ref.type} sibling needs its id in "${ref.type}"`);
  return id;
}

/**
 * Where an item lands among the children of `parentId`: before or after a sibling, or last.
 * Returns null when that is exactly where it already is (the move would change nothing). When
 * repeated moves into one gap have worn it down to nothing, the siblings are renumbered first.
 */
export async function resolvePosition(
  db: Transaction,
  organizationId: string,
  parentId: string | null,
  item: { kind: 'space' | 'collection'; id: string; parentId: string | null },
  position: Position | undefined,
): Promise<number | null> {
  const found = await findPosition(db, organizationId, parentId, item, position);
  if (found === null) return null;
  if (found.gap > 1e-6) return found.value;
  await renumberChildren(db, organizationId, parentId);
  return (await findPosition(db, organizationId, parentId, item, position))?.value ?? null;
}

async function findPosition(
  db: Transaction,
  organizationId: string,
  parentId: string | null,
  item: { kind: 'space' | 'collection'; id: string; parentId: string | null },
  position: Position | undefined,
): Promise<{ value: number; gap: number } | null> {
  const all = await listChildPositions(db, organizationId, parentId);
  const siblings = all.filter((child) => !(child.kind === item.kind && child.id === item.id));
  const samePlace = item.parentId === parentId;
  const ref = position?.before ?? position?.after;
  if (!ref) {
    if (samePlace && all[all.length - 1]?.id === item.id) return null;
    return { value: (siblings[siblings.length - 1]?.position ?? 0) + 1, gap: 1 };
  }
  if (position?.before && position.after) throw invalidInput('Invalid position: give "before" or "after", not both');
  const index = siblings.findIndex((child) => child.kind === ref.type && child.id === refId(ref));
  if (index < 0) throw invalidInput(`Invalid position: ${ref.type} ${refId(ref)} is not next to where the ${item.kind} goes`);
  const current = all.findIndex((child) => child.kind === item.kind && child.id === item.id);
  const target = siblings[index]!;
  if (position?.before) {
    if (samePlace && all[current + 1]?.id === target.id) return null;
    const previous = siblings[index - 1]?.position ?? target.position - 2;
    return { value: (previous + target.position) / 2, gap: target.position - previous };
  }
  if (samePlace && all[current - 1]?.id === target.id) return null;
  const next = siblings[index + 1]?.position ?? target.position + 2;
  return { value: (target.position + next) / 2, gap: next - target.position };
}
