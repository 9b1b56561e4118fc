import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConditionError, evaluateCondition, parseCondition } from '../../domain/common/conditions.js';

const test = suite('conditions');
const visitor = (claims: Record<string, unknown>) => ({ visitor: { claims } });
const claims = { plan: 'pro', seats: 12, roles: ['admin', 'billing'], unsigned: { beta: true, region: 'eu-west' }, company: { size: 'large' } };

test('evaluates comparisons, logic and the allowed methods over the claims', () => {
  const cases: Array<[string, boolean]> = [
    ['visitor.claims.unsigned.beta == true && visitor.claims.plan == "pro"', true],
    ['visitor.claims.plan === "free"', false],
    ['visitor.claims.plan != "free"', true],
    ['visitor.claims.seats >= 10 && visitor.claims.seats < 100', true],
    ['visitor.claims.seats > "10"', false],
    ['visitor.claims.roles.includes("admin")', true],
    ['visitor.claims.roles.includes("owner")', false],
    ['visitor.claims.unsigned.region.startsWith("eu-")', true],
    ['visitor.claims.unsigned.region.endsWith("-east")', false],
    ['visitor.claims["company"].size == "large"', true],
    ['!visitor.claims.unsigned.beta', false],
    ['visitor.claims.missing', false],
    ['visitor.claims.missing.deeper.still ?? true', true],
    ['(visitor.claims.missing ?? "fallback") == "fallback"', true],
    ['visitor.claims.seats % 5 == 2', true],
    ['visitor.claims.roles.length == 2', true],
    ['visitor.claims.plan == "pro" ? visitor.claims.seats > 5 : false', true],
    ['["pro", "enterprise"].includes(visitor.claims.plan)', true],
    ['visitor.claims.seats == "12"', false],
    ['true', true],
  ];
  for (const [expression, expected] of cases) assert.is(evaluateCondition(expression, visitor(claims)), expected, expression);
});

test('a claim absent from the visitor never throws and reads as undefined', () => {
  assert.is(evaluateCondition('visitor.claims.unsigned.beta', visitor({})), false);
  assert.is(evaluateCondition('visitor.claims.roles.includes("admin")', visitor({})), false);
  assert.is(evaluateCondition('visitor.claims.toString', visitor({})), false, 'inherited members are not claims');
});

test('reports the claims a condition reads', () => {
  assert.equal(parseCondition('visitor.claims.unsigned.beta && visitor.claims.plan == "pro" && visitor.claims.roles.includes("x")').claims, [['unsigned', 'beta'], ['plan'], ['roles']]);
});

test('syntax errors name the position; unsupported forms are refused', () => {
  const syntax: Array<[string, string, number]> = [
    ['visitor.claims.plan ==', 'Expected expression after == at character 23', 22],
    ['visitor.claims.plan == "pro', 'Unclosed quote after "pro" at character 28', 27],
    ['(visitor.claims.plan', 'Unclosed ( at character 21', 20],
    ['visitor..claims', 'Unexpected . at character 9', 8],
    ['visitor.claims.plan = "x"', 'Unexpected "=" at character 21', 20],
    ['', 'the condition is empty', 0],
  ];
  for (const [expression, message, position] of syntax) {
    try {
      parseCondition(expression);
      assert.unreachable(expression);
    } catch (error) {
      assert.instance(error, ConditionError, expression);
      assert.is((error as ConditionError).message, message, expression);
      assert.is((error as ConditionError).position, position, expression);
    }
  }
  const refused: Array<[string, string]> = [
    ['process.exit()', 'only the methods includes, startsWith, endsWith can be called in a condition'],
    ['window', 'unknown name "window": conditions read the visitor’s claims, as in visitor.claims.plan'],
    ['visitor.claims.__proto__', '"__proto__" can’t be read in a condition'],
    ['visitor.claims.a | 1', 'the operator "|" is not supported'],
    ['visitor.claims.a visitor.claims.b', 'a condition is one expression (found several side by side)'],
    ['this.x', 'ThisExpression is not supported in a condition'],
  ];
  for (const [expression, message] of refused)
    assert.throws(
      () => parseCondition(expression),
      (error: Error) => error instanceof ConditionError && error.message === message,
      expression,
    );
});

test.run();
