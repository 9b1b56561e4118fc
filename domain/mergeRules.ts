import type { SpaceMergeRules } from '../storage/spaces.js';
import { invalidInput } from './errors.js';

/** Merge rules as stored: `rules` belongs to type "rules" only, and that type needs them. */
export function toMergeRules(input: { type: 'inherit' | 'none' | 'rules'; rules?: ReadonlyArray<object> }): SpaceMergeRules {
  if (input.type !== 'rules') {
    if (input.rules !== undefined) throw invalidInput(`Invalid mergeRules: type "${input.type}" takes no "rules"`);
    return { type: input.type };
  }
  if (!input.rules) throw invalidInput('Invalid mergeRules: type "rules" needs a "rules" list');
  return { type: 'rules', rules: input.rules.map((rule) => ({ ...rule })) };
}
