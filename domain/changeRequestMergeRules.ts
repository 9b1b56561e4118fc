import { allReviews, type ReviewRecord } from '../storage/changeRequestReviews.js';
import type { ChangeRequestRecord } from '../storage/changeRequests.js';
import type { Queryable } from '../storage/db.js';
import { getOrganization } from '../storage/organizations.js';
import type { SpaceRecord } from '../storage/spaces.js';
import { findUser } from '../storage/users.js';
import { notAllowed } from './errors.js';

type Rule = Record<string, unknown> & { rule?: unknown };

/** The rules that apply to the space's merges: its own, or its organization's when it inherits. */
async function rulesOf(db: Queryable, space: SpaceRecord): Promise<Rule[]> {
  const own = space.mergeRules;
  const rules = own.type === 'inherit' ? (await getOrganization(db, space.organizationId)).mergeRules : own;
  return rules.type === 'rules' ? (rules.rules as Rule[]) : [];
}

const usersIn = (rule: Rule) => (Array.isArray(rule.users) ? rule.users.filter((user): user is string => typeof user === 'string') : []);

async function names(db: Queryable, ids: string[]): Promise<string> {
  const found = await Promise.all(ids.map(async (id) => (await findUser(db, id))?.displayName ?? id));
  return found.join(', ');
}

/**
 * Refuses the merge (403, naming the rule and who is missing) unless every merge rule holds for
 * the change request's head or the actor may bypass them. Approvals count on the current head
 * only, from each reviewer's latest review.
 */
export async function assertMergeRules(
  db: Queryable,
  input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; head: string; outdated: boolean; actorId: string },
): Promise<void> {
  const rules = await rulesOf(db, input.space);
  if (rules.length === 0) return;
  if (rules.some((rule) => rule.rule === 'allow_bypass' && usersIn(rule).includes(input.actorId))) return;
  const reviews = await allReviews(db, input.changeRequest.id);
  const latest = new Map<string, ReviewRecord>();
  for (const review of reviews) latest.set(review.reviewerId, review);
  const approvedHead = new Set([...latest.values()].filter((review) => review.status === 'approved' && review.revision === input.head).map((review) => review.reviewerId));
  for (const rule of rules) {
    const blocked = (why: string) => notAllowed(`The merge is blocked by the rule ${String(rule.rule)}: ${why}`);
    switch (rule.rule) {
      case 'require_specific_reviewers': {
        const missing = usersIn(rule).filter((user) => !approvedHead.has(user));
        if (missing.length) throw blocked(`waiting for the approval of ${await names(db, missing)} on the current revision`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!usersIn(rule).some((user) => approvedHead.has(user))) throw blocked(`waiting for the approval of one of ${await names(db, usersIn(rule))} on the current revision`);
        break;
      case 'require_at_least_one_review':
        if (approvedHead.size === 0) throw blocked('waiting for an approval on the current revision');
        break;
      case 'require_all_reviews_approved': {
        const against = [...latest.values()].filter((review) => review.status !== 'approved').map((review) => review.reviewerId);
        if (against.length) throw blocked(`${await names(db, against)} requested changes`);
        break;
      }
      case 'require_up_to_date_change_request':
        if (input.outdated) throw blocked('the change request is behind the primary branch: update it first');
        break;
      case 'require_change_request_subject':
        if (!input.changeRequest.subject.trim()) throw blocked('the change request has no subject');
        break;
      case 'require_change_request_description':
        if (input.changeRequest.description === undefined) throw blocked('the change request has no description');
        break;
      case 'allow_bypass':
        break;
      case 'require_agent_review':
        throw blocked('Quire has no review agent to satisfy it');
      default:
        // `custom` expressions need the conditions evaluator to read a merge's context (space,
        // change request, reviews, actor); until it does, such a rule can't be met.
        throw blocked('custom merge rules are not evaluated yet');
    }
  }
}
