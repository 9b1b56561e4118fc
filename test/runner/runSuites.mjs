// The uvu run loop, kept to what uvu's own (uvu/run + exec) does, plus the accounting uvu lacks:
// uvu drops an error thrown in a `before` hook (its runner returns from a `finally`), so such a
// suite reports "(0 / N)" and no failure. Here every suite must run every test it declares, every
// file must register a suite, and a hook or import that throws is a failure naming its file.
// Usage: node --import tsx test/runner/runSuites.mjs <dir> <pattern> <report.json> [skipped: files to leave out, a pattern]
import { writeFileSync } from 'node:fs';
import { parse } from 'uvu/parse';

const [dir = 'test', pattern = '\\.test\\.ts$', reportPath, skipped] = process.argv.slice(2);
process.env.FORCE_COLOR ??= '1';
globalThis.UVU_DEFER = 1;
await import('uvu');

const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
const report = { passed: 0, failed: 0, skipped: 0, problems: [] };
/** Each file's seconds, for the run's closing line. */
const secondsByFile = new Map();
const problem = (line, failedTests = 1) => {
  report.problems.push(line);
  report.failed += Math.max(1, failedTests);
};

const { suites: found } = await parse(dir, pattern, {});
const files = skipped ? found.filter((file) => !new RegExp(skipped).test(file.name)) : found;
const groups = [];
for (const [index, file] of files.entries()) {
  globalThis.UVU_INDEX = index;
  globalThis.UVU_QUEUE.push([file.name]);
  try {
    await import('file:///' + file.file);
    groups.push({ file: file.name, runs: globalThis.UVU_QUEUE[index].slice(1) });
  } catch (error) {
    console.error(`\n${file.name} failed to load:`, error);
    problem(`${file.name}: failed to load: ${error?.message ?? error}`);
    groups.push({ file: file.name, runs: [], loadFailed: true });
  }
}

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

const runStarted = performance.now();
for (const group of groups) {
  // The header carries the run's elapsed minutes, so a run stopped by its time limit still shows where the time went.
  const elapsed = ((performance.now() - runStarted) / 60_000).toFixed(1);
  process.stdout.write(`\n\u001b[1m\u001b[4m${group.file}\u001b[24m\u001b[22m (at ${elapsed} min)\n`);
  if (group.loadFailed) continue;
  const started = performance.now();
  if (group.runs.length === 0) {
    problem(`${group.file}: registered no suite (does it call test.run()?)`);
    continue;
  }
  for (const run of group.runs) {
    const { result, error, written } = await runSuite(run);
    const name = plain(written).split(/\s{2}|•|✘/)[0].trim() || '(unnamed suite)';
    if (error) {
      console.error(`\n${group.file} › ${name}: a hook threw:`, error);
      problem(`${group.file} › ${name}: an after hook threw: ${error?.message ?? error}`);
      continue;
    }
    const [errors, ran, skipped, declared] = result;
    report.passed += ran;
    report.skipped += skipped;
    if (typeof errors === 'string') {
      process.stdout.write('\n' + errors + '\n');
      report.failed += declared - ran;
    } else if (ran < declared) {
      problem(`${group.file} › ${name}: ran ${ran} of ${declared} tests: a before hook failed`, declared - ran);
    }
    if (declared === 0) problem(`${group.file} › ${name}: declares no test`);
  }
  secondsByFile.set(group.file, (performance.now() - started) / 1000);
}

// Where the run's time went: the slowest files, so a run that nears its time limit says why.
const slowest = [...secondsByFile].sort(([, a], [, b]) => b - a).slice(0, 15);
console.log('\nslowest files: ' + slowest.map(([file, seconds]) => `${file} ${seconds.toFixed(1)} s`).join(', '));

if (report.problems.length) console.error('\n' + report.problems.map((line) => `FAILED ${line}`).join('\n'));
if (reportPath) writeFileSync(reportPath, JSON.stringify(report));
process.exit(report.failed > 0 ? 1 : 0);
