// One of the test run's worker processes (scripts/test.mjs starts a few, on one database each): it
// runs the suite files it is sent, one at a time, with uvu's own loop plus the accounting uvu
// lacks. uvu drops an error thrown in a `before` hook (its runner returns from a `finally`), so such
// a suite reports "(0 / N)" and no failure; here every suite must run every test it declares, every
// file must register a suite, and a hook or import that throws is a failure naming its file.
// After each file it writes a result line (`resultMark` and JSON) on stdout, after all the file
// wrote, and the mark alone on stderr: the parent reads a file's output up to those lines. What
// this process writes to stderr goes to stdout, in order; its child processes' stderr (those that
// inherit it) comes through the parent's second pipe.
import { pathToFileURL } from 'node:url';
import { resultMark } from './suiteSets.mjs';

const stderrWrite = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => process.stdout.write(chunk, ...rest);

globalThis.UVU_DEFER = 1;
await import('uvu');

// The suites' in-process servers take their settings from the environment, as Quire's own entry
// points do (QUIRE_EMBEDDING_MODEL, which CI keeps outside the clone, among them).
const { readSettings } = await import('../../config/index.ts');
const { applySettings } = await import('../../domain/common/processSettings.ts');
applySettings(readSettings(process.env));

const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** Runs one suite, capturing what it writes so its name is known even when it reports no error. */
async function runSuite(run) {
  const write = process.stdout.write.bind(process.stdout);
  let written = '';
  process.stdout.write = (chunk, ...rest) => {
    written += String(chunk);
    return write(chunk, ...rest);
  };
  try {
    return { result: await run(), written };
  } catch (error) {
    return { error, written };
  } finally {
    process.stdout.write = write;
  }
}

let index = 0;

/** Loads and runs one file's suites; resolves with its counts. */
async function runFile(name, file) {
  const result = { file: name, passed: 0, failed: 0, skipped: 0, problems: [] };
  const problem = (line, failedTests = 1) => {
    result.problems.push(line);
    result.failed += Math.max(1, failedTests);
  };
  globalThis.UVU_INDEX = index;
  globalThis.UVU_QUEUE[index] = [name];
  try {
    await import(pathToFileURL(file).href);
  } catch (error) {
    console.error(`\n${name} failed to load:`, error);
    problem(`${name}: failed to load: ${error?.message ?? error}`);
    return result;
  }
  const runs = globalThis.UVU_QUEUE[index].slice(1);
  index += 1;
  if (runs.length === 0) problem(`${name}: registered no suite (does it call test.run()?)`);
  for (const run of runs) {
    const { result: counts, error, written } = await runSuite(run);
    const suite =
      plain(written)
        .split(/\s{2}|•|✘/)[0]
        .trim() || '(unnamed suite)';
    if (error) {
      console.error(`\n${name} › ${suite}: a hook threw:`, error);
      problem(`${name} › ${suite}: an after hook threw: ${error?.message ?? error}`);
      continue;
    }
    const [errors, ran, skipped, declared] = counts;
    result.passed += ran;
    result.skipped += skipped;
    if (typeof errors === 'string') {
      process.stdout.write('\n' + errors + '\n');
      result.failed += declared - ran;
    } else if (ran < declared) {
      problem(`${name} › ${suite}: ran ${ran} of ${declared} tests: a before hook failed`, declared - ran);
    }
    if (declared === 0) problem(`${name} › ${suite}: declares no test`);
    // A skipped test (`.skip`, or the tests `.only` leaves out) is one not run: the run fails.
    if (skipped > 0) problem(`${name} › ${suite}: ${skipped} test(s) skipped`, 0);
  }
  return result;
}

// Files come one at a time from the parent; the worker ends when the parent disconnects.
let queue = Promise.resolve();
process.on('message', (message) => {
  if (message?.type !== 'run') return;
  queue = queue.then(async () => {
    const started = performance.now();
    const result = await runFile(message.name, message.file);
    result.seconds = (performance.now() - started) / 1000;
    process.stdout.write(`\n${resultMark}${JSON.stringify(result)}\n`);
    stderrWrite(`\n${resultMark}\n`);
  });
});
process.on('disconnect', () => {
  void queue.then(() => process.exit(0));
});
