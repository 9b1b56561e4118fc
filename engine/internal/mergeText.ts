import { diff3Merge } from 'node-diff3';

/**
 * Three-way merge of texts line by line (diff3): both sides' edits to different lines land;
 * lines both sides changed differently are a conflict (null). Identical edits are no conflict.
 */
export function mergeText(base: string, ours: string, theirs: string): string | null {
  if (ours === theirs || base === theirs) return ours;
  if (base === ours) return theirs;
  const regions = diff3Merge(ours.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const region of regions) {
    if ('conflict' in region && region.conflict) return null;
    if ('ok' in region && region.ok) lines.push(...region.ok);
  }
  return lines.join('\n');
}
