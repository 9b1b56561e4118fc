import { allReviews, type ReviewRecord } from '../../storage/changeRequestReviews.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { Queryable } from '../../storage/db.js';
import { getOrganization } from '../../storage/organizations.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import { ConditionError } from '../common/conditions.js';
import { evaluateMergeExpression, type MergeRuleContext } from './mergeRuleExpression.js';
import { notAllowed } from '../common/errors.js';

type Rule = Record<string, unknown> & { rule?: unknown };

/** The rules that apply to the space's merges: its own, or its organization's when it inherits. */
async function rulesOf(db: Queryable, space: SpaceRecord): Promise<Rule[]> {
  const own = space.mergeRules;
  const rules = own.type === 'inherit' ? (await getOrganization(db, space.organizationId)).mergeRules : own;
  return rules.type === 'rules' ? (rules.rules as Rule[]) : [];
}

const usersIn = (rule: Rule) => (Array.isArray(rule.users) ? rule.users.filter((user): user is string => typeof user === 'string') : []);

const person = (user: UserRecord | undefined, id: string) => ({ id, displayName: user?.displayName ?? 'Former user', email: user?.email ?? '' });

/** What a custom rule's expression reads. */
async function contextOf(db: Queryable, input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; outdated: boolean; actorId: string }, reviews: ReviewRecord[]): Promise<MergeRuleContext> {
  const people = new Map<string, UserRecord | undefined>();
  for (const id of new Set([input.actorId, input.changeRequest.createdBy, ...reviews.map((review) => review.reviewerId)])) people.set(id, await findUser(db, id));
  const { space, changeRequest } = input;
  return {
    space: { id: space.id, title: space.title, visibility: space.visibility, editMode: space.editMode },
    changeRequest: {
      id: changeRequest.id,
      number: changeRequest.number,
      subject: changeRequest.subject,
      status: changeRequest.status,
      outdated: input.outdated,
      createdBy: person(people.get(changeRequest.createdBy), changeRequest.createdBy),
    },
    reviews: reviews.map((review) => ({ status: review.status, outdated: review.outdated, revision: review.revision, reviewer: person(people.get(review.reviewerId), review.reviewerId) })),
    actor: person(people.get(input.actorId), input.actorId),
  };
}

async function names(db: Queryable, ids: string[]): Promise<string> {
  const found = await Promise.all(ids.map(async (id) => (await findUser(db, id))?.displayName ?? id));
  return found.join(', ');
}

/**
 * The rule a change landing on the primary branch without a change request (a `git push` to it)
 * would skip, or null when none applies: every rule is about a change request's reviews or state,
 * so any rule skips unless it lets this actor bypass them.
 */
export async function ruleSkippedByDirectChange(db: Queryable, space: SpaceRecord, actorId: string): Promise<string | null> {
  const rules = await rulesOf(db, space);
  const required = rules.filter((rule) => rule.rule !== 'allow_bypass');
  if (required.length === 0 || rules.some((rule) => rule.rule === 'allow_bypass' && usersIn(rule).includes(actorId))) return null;
  return String(required[0]!.rule);
}

/**
 * Refuses the merge (403, naming the rule and who is missing) unless every merge rule holds for
 * the change request's head or the actor may bypass them. Approvals count on the current head
 * only, from each reviewer's latest review; the author's own approval counts only for the rules
 * that name the author as a reviewer. A `custom` rule holds when its expression is true.
 */
export async function assertMergeRules(db: Queryable, input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; head: string; outdated: boolean; actorId: string }): Promise<void> {
  const rules = await rulesOf(db, input.space);
  if (rules.length === 0) return;
  if (rules.some((rule) => rule.rule === 'allow_bypass' && usersIn(rule).includes(input.actorId))) return;
  const reviews = await allReviews(db, input.changeRequest.id);
  const latest = new Map<string, ReviewRecord>();
  for (const review of reviews) latest.set(review.reviewerId, review);
  const approvedHead = new Set([...latest.values()].filter((review) => review.status === 'approved' && review.revision === input.head).map((review) => review.reviewerId));
  // A review is someone else's look at the change: the author's own approval counts only where a rule names the author.
  const approvedByOthers = [...approvedHead].filter((reviewer) => reviewer !== input.changeRequest.createdBy);
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
        if (approvedByOthers.length === 0) throw blocked('waiting for an approval by someone other than its author on the current revision');
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
      case 'custom': {
        let holds: boolean;
        try {
          holds = evaluateMergeExpression(String(rule.expression ?? ''), await contextOf(db, input, reviews));
        } catch (error) {
          if (!(error instanceof ConditionError)) throw error;
          throw blocked(`its expression can't be evaluated: ${error.message}`);
        }
        if (!holds) throw blocked(`${JSON.stringify(rule.expression)} is false`);
        break;
      }
      default:
        throw blocked("Quire doesn't know this rule");
    }
  }
}
