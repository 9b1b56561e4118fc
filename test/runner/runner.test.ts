import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../helpers/processes.js';

// The test runner itself, run as `npm test` runs it, over fixture suites that fail in each way
// uvu alone would let pass.
const test = suite('test runner');

function runFixtures(pattern: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/test.mjs', 'test/fixtures/runner', pattern], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QUIRE_TEST_DRIVERS: 'sqlite' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const lastLine = (text: string) => text.trim().split('\n').at(-1);

test('a before hook that throws fails the run and names the suite and its file', async () => {
  const run = await runFixtures('hookFails\\.fixture\\.ts$');
  assert.is(run.code, 1, run.stdout + run.stderr);
  assert.ok(run.stderr.includes('FAILED hookFails.fixture.ts › setup that throws: ran 0 of 2 tests: a before hook failed'), run.stderr);
  assert.is(lastLine(run.stdout), '0 passed, 2 failed');
});

test('a file that registers no suite fails the run and is named', async () => {
  const run = await runFixtures('noSuite\\.fixture\\.ts$');
  assert.is(run.code, 1, run.stdout + run.stderr);
  assert.ok(run.stderr.includes('FAILED noSuite.fixture.ts: registered no suite (does it call test.run()?)'), run.stderr);
  assert.is(lastLine(run.stdout), '0 passed, 1 failed');
});

test('an after hook that throws fails the run, and the suites after it still run', async () => {
  const run = await runFixtures('(afterFails|passes)\\.fixture\\.ts$');
  assert.is(run.code, 1, run.stdout + run.stderr);
  assert.ok(run.stderr.includes('FAILED afterFails.fixture.ts › teardown that throws: an after hook threw: the server did not stop'), run.stderr);
  assert.is(lastLine(run.stdout), '2 passed, 1 failed');
});

test('a failing test fails the run with its count', async () => {
  const run = await runFixtures('testFails\\.fixture\\.ts$');
  assert.is(run.code, 1, run.stdout + run.stderr);
  assert.ok(run.stdout.includes('one wrong answer'), run.stdout);
  assert.is(lastLine(run.stdout), '1 passed, 1 failed');
});

test('suites that all pass end the run with exit code 0', async () => {
  const run = await runFixtures('passes\\.fixture\\.ts$');
  assert.is(run.code, 0, run.stdout + run.stderr);
  assert.is(lastLine(run.stdout), '2 passed, 0 failed');
});

test.run();
