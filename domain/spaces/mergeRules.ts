import type { SpaceMergeRules } from '../../storage/spaces.js';
import { invalidInput } from '../common/errors.js';

/** The rules that name people (upstream requires their `users`). */
const usersRules = new Set(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']);

/** Merge rules as stored: `rules` belongs to type "rules" only, and that type needs them. */
export function toMergeRules(input: { type: 'inherit' | 'none' | 'rules'; rules?: ReadonlyArray<object> }): SpaceMergeRules {
  if (input.type !== 'rules') {
    if (input.rules !== undefined) throw invalidInput(`Invalid mergeRules: type "${input.type}" takes no "rules"`);
    return { type: input.type };
  }
  if (!input.rules) throw invalidInput('Invalid mergeRules: type "rules" needs a "rules" list');
  for (const rule of input.rules as ReadonlyArray<{ rule?: string; users?: unknown; expression?: unknown }>) {
    if (rule.rule && usersRules.has(rule.rule) && (!Array.isArray(rule.users) || rule.users.length === 0)) {
      throw invalidInput(`Invalid mergeRules: rule "${rule.rule}" needs a non-empty "users" list`);
    }
    if (rule.rule === 'custom' && typeof rule.expression !== 'string') throw invalidInput('Invalid mergeRules: rule "custom" needs an "expression"');
  }
  return { type: 'rules', rules: input.rules.map((rule) => ({ ...rule })) };
}
