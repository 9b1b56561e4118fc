import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite("async context hooks: on only while a tracked storage's run is under way");

test('a run carries its store across awaits; the hooks are off once it and every other run have ended, failed ones too', () => {
  // Its own process: the suites of a test run share one, where other code may have turned the hooks on.
  const seen = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'test/fixtures/asyncContextHooks/probe.ts'], { encoding: 'utf8' }));
  assert.equal(seen, {
    beforeAnyRun: false,
    callStore: { call: 'c' },
    whileTheActivityRuns: true,
    activityStore: { activity: 'a' },
    afterBothEnded: false,
    storeOutsideRuns: null,
    failedCall: 'the call failed',
    thrownCall: 'thrown at once',
    afterFailures: false,
    storeOfALaterRun: { call: 'again' },
    atTheEnd: false,
  });
});

test.run();
