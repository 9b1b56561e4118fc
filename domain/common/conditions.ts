import jsep from 'jsep';

/**
 * Visitor conditions of site spaces and sections: JavaScript expressions over the visitor's
 * claims (`visitor.claims.plan == "pro" && visitor.claims.unsigned.beta`), parsed by jsep and
 * evaluated by the walker below, never by eval. Only what a condition needs is accepted: literals,
 * arrays, `visitor…` members, `! - +`, comparisons, arithmetic, `&& || ??`, `a ? b : c`, and the
 * methods `includes`, `startsWith`, `endsWith`. Equality is strict (`==` is `===`); a missing
 * claim reads as undefined, and going through it does too, so an absent claim never throws.
 */

export type Claims = Record<string, unknown>;
export interface ConditionContext {
  visitor: { claims: Claims };
}

export class ConditionError extends Error {
  constructor(
    message: string,
    /** 0-based character offset of a syntax error, when there is one. */
    readonly position?: number,
  ) {
    super(message);
    this.name = 'ConditionError';
  }
}

export interface ParsedCondition {
  expression: string;
  ast: jsep.Expression;
  /** Each claim path the condition reads, e.g. ['unsigned', 'beta'] for visitor.claims.unsigned.beta. */
  claims: string[][];
}

const binaryOperators = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '&&', '||', '??']);
const unaryOperators = new Set(['!', '-', '+']);
const methods = new Set(['includes', 'startsWith', 'endsWith']);
const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype']);

const parsed = new Map<string, ParsedCondition>();
const parsedLimit = 2000;

/** The condition's syntax tree and the claims it reads; throws ConditionError naming what is wrong and where. */
export function parseCondition(expression: string): ParsedCondition {
  const known = parsed.get(expression);
  if (known) return known;
  if (expression.trim() === '') throw new ConditionError('the condition is empty', 0);
  let ast: jsep.Expression;
  try {
    ast = jsep(expression);
  } catch (error) {
    const { description, index } = error as { description?: string; index?: number };
    throw new ConditionError(`${description ?? (error as Error).message} at character ${(index ?? 0) + 1}`, index ?? 0);
  }
  const claims: string[][] = [];
  check(ast, claims);
  const result = { expression, ast, claims };
  if (parsed.size >= parsedLimit) parsed.clear();
  parsed.set(expression, result);
  return result;
}

/** Whether the visitor passes the condition (its value, taken as a boolean). */
export function evaluateCondition(expression: string | ParsedCondition, context: ConditionContext): boolean {
  const condition = typeof expression === 'string' ? parseCondition(expression) : expression;
  return Boolean(evaluate(condition.ast, context));
}

function check(node: jsep.Expression, claims: string[][]): void {
  switch (node.type) {
    case 'Literal':
      if ((node as jsep.Literal).value instanceof RegExp) throw new ConditionError('regular expressions are not supported');
      return;
    case 'ArrayExpression':
      for (const element of (node as jsep.ArrayExpression).elements) {
        if (!element) throw new ConditionError('arrays can’t have holes');
        check(element, claims);
      }
      return;
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (name !== 'visitor') throw new ConditionError(`unknown name "${name}": conditions read the visitor’s claims, as in visitor.claims.plan`);
      return;
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const name = propertyName(member);
      if (name !== undefined && forbiddenNames.has(name)) throw new ConditionError(`"${name}" can’t be read in a condition`);
      if (member.computed && name === undefined) check(member.property, claims);
      check(member.object, claims);
      const path = claimPath(member);
      if (path && path.length > 0) {
        // Only the longest path of a chain counts: visitor.claims.a.b reads a.b, not also a.
        const prefixIndex = claims.findIndex((known) => known.length < path.length && known.every((part, i) => part === path[i]));
        if (prefixIndex >= 0) claims.splice(prefixIndex, 1);
        if (!claims.some((known) => known.length >= path.length && path.every((part, i) => part === known[i]))) claims.push(path);
      }
      return;
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee;
      const name = callee.type === 'MemberExpression' ? propertyName(callee as jsep.MemberExpression) : undefined;
      if (!name || !methods.has(name)) throw new ConditionError(`only the methods ${[...methods].join(', ')} can be called in a condition`);
      check((callee as jsep.MemberExpression).object, claims);
      for (const argument of call.arguments) check(argument, claims);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!unaryOperators.has(unary.operator)) throw new ConditionError(`the operator "${unary.operator}" is not supported`);
      check(unary.argument, claims);
      return;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!binaryOperators.has(binary.operator)) throw new ConditionError(`the operator "${binary.operator}" is not supported`);
      check(binary.left, claims);
      check(binary.right, claims);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      check(conditional.test, claims);
      check(conditional.consequent, claims);
      check(conditional.alternate, claims);
      return;
    }
    case 'Compound':
      throw new ConditionError('a condition is one expression (found several side by side)');
    default:
      throw new ConditionError(`${node.type} is not supported in a condition`);
  }
}

/** The name a member expression reads: `a.b` and `a["b"]` both name b; `a[x]` names none. */
function propertyName(member: jsep.MemberExpression): string | undefined {
  if (!member.computed) return (member.property as jsep.Identifier).name;
  const property = member.property as jsep.Literal;
  return property.type === 'Literal' && (typeof property.value === 'string' || typeof property.value === 'number') ? String(property.value) : undefined;
}

/** visitor.claims.a.b → ['a', 'b']; anything not under visitor.claims → undefined. */
function claimPath(member: jsep.MemberExpression): string[] | undefined {
  const names: string[] = [];
  let current: jsep.Expression = member;
  while (current.type === 'MemberExpression') {
    const name = propertyName(current as jsep.MemberExpression);
    if (name === undefined) names.length = 0;
    else names.unshift(name);
    current = (current as jsep.MemberExpression).object;
  }
  if (current.type !== 'Identifier' || (current as jsep.Identifier).name !== 'visitor' || names[0] !== 'claims') return undefined;
  return names.slice(1);
}

function evaluate(node: jsep.Expression, context: ConditionContext): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) => (element ? evaluate(element, context) : undefined));
    case 'Identifier':
      return context.visitor;
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const target = evaluate(member.object, context);
      const name = member.computed ? evaluate(member.property, context) : (member.property as jsep.Identifier).name;
      return readProperty(target, name);
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee as jsep.MemberExpression;
      const target = evaluate(callee.object, context);
      const name = propertyName(callee) as 'includes' | 'startsWith' | 'endsWith';
      const args = call.arguments.map((argument) => evaluate(argument, context));
      if (name === 'includes' && (Array.isArray(target) || typeof target === 'string')) return target.includes(args[0] as never);
      if (typeof target === 'string' && typeof args[0] === 'string' && name !== 'includes') return target[name](args[0]);
      return false;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const value = evaluate(unary.argument, context);
      if (unary.operator === '!') return !value;
      return unary.operator === '-' ? -Number(value) : Number(value);
    }
    case 'BinaryExpression':
      return binary(node as jsep.BinaryExpression, context);
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluate(conditional.test, context) ? evaluate(conditional.consequent, context) : evaluate(conditional.alternate, context);
    }
    default:
      return undefined;
  }
}

function readProperty(target: unknown, name: unknown): unknown {
  if (target === null || target === undefined) return undefined;
  if (typeof name !== 'string' && typeof name !== 'number') return undefined;
  const key = String(name);
  if (forbiddenNames.has(key)) return undefined;
  if (key === 'length' && (Array.isArray(target) || typeof target === 'string')) return target.length;
  if (typeof target !== 'object' || !Object.prototype.hasOwnProperty.call(target, key)) return undefined;
  return (target as Record<string, unknown>)[key];
}

function binary(node: jsep.BinaryExpression, context: ConditionContext): unknown {
  const left = evaluate(node.left, context);
  if (node.operator === '&&') return left ? evaluate(node.right, context) : left;
  if (node.operator === '||') return left ? left : evaluate(node.right, context);
  if (node.operator === '??') return left ?? evaluate(node.right, context);
  const right = evaluate(node.right, context);
  switch (node.operator) {
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(node.operator, left, right);
    case '+':
      if (typeof left === 'string' || typeof right === 'string') return `${String(left)}${String(right)}`;
      return Number(left) + Number(right);
    case '-':
      return Number(left) - Number(right);
    case '*':
      return Number(left) * Number(right);
    case '/':
      return Number(left) / Number(right);
    case '%':
      return Number(left) % Number(right);
    default:
      return undefined;
  }
}

/** Numbers with numbers, strings with strings; anything else compares false. */
function compare(operator: '<' | '<=' | '>' | '>=', left: unknown, right: unknown): boolean {
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left as number | string, right as number | string];
  if (operator === '<') return a < b;
  if (operator === '<=') return a <= b;
  if (operator === '>') return a > b;
  return a >= b;
}
