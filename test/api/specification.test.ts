import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allRoutes } from '../../api/routes/index.js';
import { specifiedOperations, unroutedOperations } from '../../api/routes/specification.js';

const test = suite('the specification, inside the project');
const require = createRequire(import.meta.url);

test('every specified operation is the upstream operation of its method and path in @gitbook/api', () => {
  const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  assert.is(specifiedOperations.length, 138);
  for (const op of specifiedOperations) {
    const upstream = spec.paths[op.path.replace(/^\/v1/, '')]?.[op.method.toLowerCase()];
    assert.is(upstream?.operationId, op.operationId, `${op.method} ${op.path}`);
  }
  assert.is(new Set(specifiedOperations.map((op) => op.operationId)).size, specifiedOperations.length, 'no operation is listed twice');
});

test('the foundation’s, the spaces’ and the content’s operations all have routes', () => {
  const built = ['Organizations', 'Organization members', 'Teams', 'SAML and SSO', 'Spaces', 'Space content', 'Collections'];
  const missing = unroutedOperations(allRoutes).filter((op) => built.includes(op.area));
  assert.equal(missing, []);
});

test('no tracked file outside docs/ depends on files beside the checkout', () => {
  const grep = spawnSync('git', ['grep', '-l', '-F', '../shared', '--', '.', ':!docs', ':!test/api/specification.test.ts'], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
  assert.is(grep.status, 1, `git grep found it in:\n${grep.stdout}${grep.stderr}`); // 1: no match
});

test.run();
