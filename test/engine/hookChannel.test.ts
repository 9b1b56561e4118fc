import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeHookChannel, registerPush } from '../../engine/git/hookServer.js';

const test = suite('engine: the socket git hooks call back on');
test.after(() => closeHookChannel());

const handlers = { check: async () => [], land: async () => [] };

test('a swept temporary folder is made again on the next push; each push has its own id', async () => {
  const first = await registerPush(handlers);
  const second = await registerPush(handlers);
  assert.is.not(first.env.QUIRE_GIT_PUSH, second.env.QUIRE_GIT_PUSH);
  assert.ok(existsSync(first.env.QUIRE_GIT_HOOKS_SOCKET!));
  assert.ok(existsSync(path.join(first.hooksFolder, 'pre-receive')) && existsSync(path.join(first.hooksFolder, 'proc-receive')));
  rmSync(path.dirname(first.env.QUIRE_GIT_HOOKS_SOCKET!), { recursive: true, force: true });
  const third = await registerPush(handlers);
  assert.ok(existsSync(third.env.QUIRE_GIT_HOOKS_SOCKET!), 'a new socket');
  assert.ok(existsSync(path.join(third.hooksFolder, 'proc-receive')), 'new hooks');
  for (const push of [first, second, third]) push.release();
});

test("a channel folder left by a process of this host that was killed is removed when a channel opens; a live process's and another host's are kept", async () => {
  await closeHookChannel();
  const gone = spawnSync(process.execPath, ['-e', '']).pid!; // exited: its id names no process now
  const host = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
  const abandoned = mkdtempSync(path.join(tmpdir(), `quire-git-hooks-${host}-${gone}-`));
  const live = mkdtempSync(path.join(tmpdir(), `quire-git-hooks-${host}-${process.ppid}-`));
  const otherHost = mkdtempSync(path.join(tmpdir(), `quire-git-hooks-0000abcd-${gone}-`));
  try {
    const push = await registerPush(handlers);
    assert.not.ok(existsSync(abandoned), "the killed process's folder");
    assert.ok(existsSync(live), "a running process's folder");
    assert.ok(existsSync(otherHost), "another host's folder (a container sharing the temporary folder)");
    assert.match(path.basename(path.dirname(push.env.QUIRE_GIT_HOOKS_SOCKET!)), `quire-git-hooks-${host}-${process.pid}-`);
    push.release();
  } finally {
    rmSync(live, { recursive: true, force: true });
    rmSync(otherHost, { recursive: true, force: true });
    rmSync(abandoned, { recursive: true, force: true });
  }
});

test.run();
