import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../helpers/processes.js';

// The test runner itself, run as `npm test` runs it, over fixture suites that fail in each way
// uvu alone would let pass, that hang, crash or talk.
const test = suite('test runner');
const scratch = mkdtempSync(path.join(tmpdir(), 'quire-runner-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

function runFixtures(pattern: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string; output: string }> {
  const logs = mkdtempSync(path.join(scratch, 'logs-'));
  const child = spawn(process.execPath, ['scripts/test.mjs', 'test/fixtures/runner', pattern], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QUIRE_TEST_DRIVERS: 'sqlite', QUIRE_TEST_LOG_DIR: logs, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, output: stdout + stderr })));
}

const lastLine = (text: string) => text.trim().split('\n').at(-1);

test('a before hook that throws fails the run and names the suite and its file', async () => {
  const run = await runFixtures('hookFails\\.fixture\\.ts$');
  assert.is(run.code, 1, run.output);
  assert.ok(run.stderr.includes('FAILED sqlite: hookFails.fixture.ts › setup that throws: ran 0 of 2 tests: a before hook failed'), run.stderr);
  assert.is(lastLine(run.stdout), '0 passed, 2 failed');
});

test('a file that registers no suite fails the run and is named', async () => {
  const run = await runFixtures('noSuite\\.fixture\\.ts$');
  assert.is(run.code, 1, run.output);
  assert.ok(run.stderr.includes('FAILED sqlite: noSuite.fixture.ts: registered no suite (does it call test.run()?)'), run.stderr);
  assert.is(lastLine(run.stdout), '0 passed, 1 failed');
});

test('an after hook that throws fails the run, and the suites after it still run', async () => {
  const run = await runFixtures('(afterFails|passes)\\.fixture\\.ts$', { QUIRE_TEST_JOBS: '1' });
  assert.is(run.code, 1, run.output);
  assert.ok(run.stderr.includes('FAILED sqlite: afterFails.fixture.ts › teardown that throws: an after hook threw: the server did not stop'), run.stderr);
  assert.is(lastLine(run.stdout), '2 passed, 1 failed');
});

test('a failing test fails the run with its count', async () => {
  const run = await runFixtures('testFails\\.fixture\\.ts$');
  assert.is(run.code, 1, run.output);
  assert.ok(run.stdout.includes('one wrong answer'), run.stdout);
  assert.is(lastLine(run.stdout), '1 passed, 1 failed');
});

test('a skipped test fails the run, naming the suite', async () => {
  const run = await runFixtures('skipped\\.fixture\\.ts$');
  assert.is(run.code, 1, run.output);
  assert.ok(run.stderr.includes('FAILED sqlite: skipped.fixture.ts › a suite with a skipped test: 1 test(s) skipped'), run.stderr);
  assert.is(lastLine(run.stdout), '1 passed, 1 failed');
});

test('a file that hangs is stopped at its time limit and fails; the files after it run', async () => {
  const run = await runFixtures('(hangs|passes)\\.fixture\\.ts$', { QUIRE_TEST_JOBS: '1', QUIRE_TEST_FILE_TIMEOUT_MINUTES: '0.05' });
  assert.is(run.code, 1, run.output);
  assert.ok(run.stdout.includes('hangs.fixture.ts took over 0.05 minutes: its worker was stopped'), run.stdout);
  assert.is(lastLine(run.stdout), '2 passed, 1 failed');
});

test('a file that ends its worker process fails with what it wrote; the files after it run', async () => {
  const run = await runFixtures('(crashes|passes)\\.fixture\\.ts$', { QUIRE_TEST_JOBS: '1' });
  assert.is(run.code, 1, run.output);
  assert.ok(run.stdout.includes('about to exit'), run.stdout);
  assert.ok(run.stdout.includes('the suite worker exited (exit code 3) while running this file'), run.stdout);
  assert.is(lastLine(run.stdout), '2 passed, 1 failed');
});

test('a passing file prints one line; what it wrote is kept in its log file', async () => {
  const logs = mkdtempSync(path.join(scratch, 'kept-'));
  const run = await runFixtures('noisy\\.fixture\\.ts$', { QUIRE_TEST_LOG_DIR: logs });
  assert.is(run.code, 0, run.output);
  assert.not.ok(run.output.includes('a server log line'), run.output);
  assert.ok(/^✓ SQLite noisy\.fixture\.ts {2}1 passed {2}[\d.]+ s$/m.test(run.stdout), run.stdout);
  const kept = readFileSync(path.join(logs, 'sqlite', 'noisy.fixture.ts.log'), 'utf8');
  assert.ok(kept.includes('a server log line') && kept.includes('a warning on stderr'), kept);
});

test('files run side by side: two that can pass only together both pass', async () => {
  const meeting = mkdtempSync(path.join(scratch, 'rendezvous-'));
  const run = await runFixtures('rendezvous[AB]\\.fixture\\.ts$', { QUIRE_TEST_JOBS: '2', QUIRE_TEST_RENDEZVOUS: meeting });
  assert.is(run.code, 0, run.output);
  assert.is(lastLine(run.stdout), '2 passed, 0 failed');
});

test('suites that all pass end the run with exit code 0', async () => {
  const run = await runFixtures('passes\\.fixture\\.ts$');
  assert.is(run.code, 0, run.output);
  assert.is(lastLine(run.stdout), '2 passed, 0 failed');
});

test.run();
