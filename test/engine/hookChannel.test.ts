import { existsSync, rmSync } from 'node:fs';
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

test.run();
