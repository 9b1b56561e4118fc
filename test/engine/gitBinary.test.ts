import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkGitBinary } from '../../engine/git/gitService.js';

const test = suite('engine: the system git Quire hands pack work to');

test('found at start, with its version; missing, a clear error saying what to install', () => {
  assert.match(checkGitBinary(), /^git version 2\./);
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    assert.throws(() => checkGitBinary(), /Quire serves spaces over git with the system git, which is not on PATH .*: install git 2\.29 or later/);
  } finally {
    process.env.PATH = path;
  }
});

test.run();
