import jsep from 'jsep';
import { ConditionError, evaluateCondition, type ParsedCondition } from '../common/conditions.js';

/** What a `custom` merge rule reads (upstream `MergeRulesEvaluationContext`, the fields Quire has). */
export interface MergeRuleContext {
  space: { id: string; title: string; visibility: string; editMode: string };
  changeRequest: { id: string; number: number; subject: string; status: string; outdated: boolean; createdBy: Person };
  reviews: Array<{ status: string; outdated: boolean; revision: string; reviewer: Person }>;
  actor: Person;
}
interface Person {
  id: string;
  displayName: string;
  email: string;
}

const roots = new Set(['space', 'changeRequest', 'reviews', 'actor']);
const methods = new Set(['includes', 'startsWith', 'endsWith']);
const forbidden = new Set(['__proto__', 'constructor', 'prototype']);
const unary = new Set(['!', '-', '+']);
const binary = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '&&', '||', '??']);
const nodeTypes = new Set(['Literal', 'ArrayExpression', 'Identifier', 'MemberExpression', 'CallExpression', 'UnaryExpression', 'BinaryExpression', 'ConditionalExpression']);

/**
 * A `custom` merge rule's expression, evaluated by the site conditions' walker (jsep, never eval):
 * the same operators and methods, over `space`, `changeRequest`, `reviews` and `actor` instead of
 * the visitor. The expression is checked here (names, node kinds), then its names are rewritten to
 * the walker's one root. Throws ConditionError for an expression it can't evaluate.
 */
export function evaluateMergeExpression(expression: string, context: MergeRuleContext): boolean {
  let ast: jsep.Expression;
  try {
    ast = jsep(expression);
  } catch (error) {
    throw new ConditionError(`${(error as { description?: string }).description ?? (error as Error).message}`);
  }
  const parsed: ParsedCondition = { expression, ast: rooted(ast), claims: [] };
  return evaluateCondition(parsed, { visitor: { claims: context as unknown as Record<string, unknown> } });
}

function rooted(node: jsep.Expression): jsep.Expression {
  if (!nodeTypes.has(node.type)) throw new ConditionError(node.type === 'Compound' ? 'an expression is one expression (found several side by side)' : `${node.type} is not supported`);
  switch (node.type) {
    case 'Literal':
      if ((node as jsep.Literal).value instanceof RegExp) throw new ConditionError('regular expressions are not supported');
      return node;
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (!roots.has(name)) throw new ConditionError(`unknown name "${name}": merge rules read ${[...roots].join(', ')}`);
      const claims: jsep.MemberExpression = { type: 'MemberExpression', computed: false, object: { type: 'Identifier', name: 'visitor' }, property: { type: 'Identifier', name: 'claims' } };
      return { type: 'MemberExpression', computed: false, object: claims, property: { type: 'Identifier', name } };
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const name = member.computed ? undefined : (member.property as jsep.Identifier).name;
      if (name !== undefined && forbidden.has(name)) throw new ConditionError(`"${name}" can't be read`);
      return { ...member, object: rooted(member.object), property: member.computed ? rooted(member.property) : member.property };
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee as jsep.MemberExpression;
      if (callee.type !== 'MemberExpression' || callee.computed || !methods.has((callee.property as jsep.Identifier).name)) {
        throw new ConditionError(`only the methods ${[...methods].join(', ')} can be called`);
      }
      return { ...call, callee: { ...callee, object: rooted(callee.object) }, arguments: call.arguments.map(rooted) };
    }
    case 'ArrayExpression':
      return { ...node, elements: (node as jsep.ArrayExpression).elements.map((element) => (element ? rooted(element) : element)) };
    case 'UnaryExpression':
      if (!unary.has((node as jsep.UnaryExpression).operator)) throw new ConditionError(`the operator "${(node as jsep.UnaryExpression).operator}" is not supported`);
      return { ...node, argument: rooted((node as jsep.UnaryExpression).argument) };
    case 'BinaryExpression':
      if (!binary.has((node as jsep.BinaryExpression).operator)) throw new ConditionError(`the operator "${(node as jsep.BinaryExpression).operator}" is not supported`);
      return { ...node, left: rooted((node as jsep.BinaryExpression).left), right: rooted((node as jsep.BinaryExpression).right) };
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return { ...conditional, test: rooted(conditional.test), consequent: rooted(conditional.consequent), alternate: rooted(conditional.alternate) };
    }
    default:
      return node;
  }
}
