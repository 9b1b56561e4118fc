import { invalidInput } from '../common/errors.js';

/** One of the items ordered together: sections and groups under one parent, or site spaces of one container. */
export interface Sibling {
  kind: string;
  id: string;
  position: number;
}

export interface Placement {
  position: number;
  /** Set only when repeated moves wore the gap down: every sibling's new position, to store first. */
  renumbered?: Sibling[];
}

const minimumGap = 1e-9;

/** After the last sibling: where new items go. */
export function positionAtEnd(siblings: Sibling[]): number {
  return (siblings[siblings.length - 1]?.position ?? 0) + 1;
}

/**
 * Where an item lands among `siblings` (in order, the item itself left out): before or after the
 * sibling `ref`, or last without one. Halfway between two neighbours, so a move writes one row;
 * only when halving has worn a gap out are the siblings renumbered (1, 2, 3…), every ~30 moves
 * into one gap at worst.
 */
export function placeAmong(
  siblings: Sibling[],
  where: { before?: { kind: string; id: string }; after?: { kind: string; id: string } } | undefined,
  describe: (ref: { kind: string; id: string }) => string,
): Placement {
  if (where?.before && where.after) throw invalidInput('Invalid position: give "before" or "after", not both');
  const ref = where?.before ?? where?.after;
  if (!ref) return { position: positionAtEnd(siblings) };
  const index = siblings.findIndex((sibling) => sibling.kind === ref.kind && sibling.id === ref.id);
  if (index < 0) throw invalidInput(`Invalid position: ${describe(ref)}`);
  const placed = between(siblings, index, where?.before ? 'before' : 'after');
  if (placed.gap > minimumGap) return { position: placed.value };
  const renumbered = siblings.map((sibling, i) => ({ ...sibling, position: i + 1 }));
  return { position: between(renumbered, index, where?.before ? 'before' : 'after').value, renumbered };
}

function between(siblings: Sibling[], index: number, side: 'before' | 'after'): { value: number; gap: number } {
  const target = siblings[index]!.position;
  if (side === 'before') {
    const previous = siblings[index - 1]?.position ?? target - 2;
    return { value: (previous + target) / 2, gap: target - previous };
  }
  const next = siblings[index + 1]?.position ?? target + 2;
  return { value: (target + next) / 2, gap: next - target };
}
