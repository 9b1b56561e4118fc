import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../helpers/processes.js';

/**
 * scripts/renderer builds GitBook's renderer offline from a local checkout, at the commit
 * docs/renderer.md names, with offline.patch. The script, the patch and the page agree on that
 * commit; with a checkout of GitbookIO/gitbook at hand (QUIRE_RENDERER_CHECKOUT), the patch is
 * applied to that commit's tree (in a scratch index: the checkout is left as it is).
 */
const test = suite('the renderer’s offline build: script, patch and docs agree, and the patch applies');
const folder = path.join(projectRoot, 'scripts/renderer');
const patch = path.join(folder, 'offline.patch');
const commitOf = (text: string, pattern: RegExp) => pattern.exec(text)?.[1];

test('the script and docs/renderer.md name one commit; the patch changes the three files the page says', () => {
  const script = readFileSync(path.join(folder, 'build.sh'), 'utf8');
  const page = readFileSync(path.join(projectRoot, 'docs/renderer.md'), 'utf8');
  const commit = commitOf(script, /^commit=([0-9a-f]{12,40})$/m);
  assert.ok(commit, 'build.sh names its commit');
  assert.ok(page.includes(`git checkout ${commit}`), 'docs/renderer.md checks out the same commit');
  const files = [...readFileSync(patch, 'utf8').matchAll(/^diff --git a\/(\S+) b\//gm)].map((match) => match[1]);
  assert.equal(files, ['package.json', 'packages/gitbook/next.config.mjs', 'packages/gitbook/scripts/download-fonts.ts']);
});

test('offline.patch applies to that commit of a checkout of GitbookIO/gitbook, when one is at hand', () => {
  const checkout = process.env.QUIRE_RENDERER_CHECKOUT;
  if (!checkout || !existsSync(checkout)) {
    console.log('    (no checkout of GitbookIO/gitbook: set QUIRE_RENDERER_CHECKOUT to apply offline.patch to it)');
    return;
  }
  const commit = commitOf(readFileSync(path.join(folder, 'build.sh'), 'utf8'), /^commit=([0-9a-f]{12,40})$/m)!;
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-renderer-patch-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', checkout, ...args], { env: { ...process.env, GIT_INDEX_FILE: path.join(scratch, 'index') }, encoding: 'utf8' });
    git('read-tree', commit);
    git('apply', '--cached', patch);
    assert.match(git('show', ':package.json'), '"@gitbook/api": "0.202.0"', 'the API client Quire answers for');
    assert.match(git('show', ':packages/gitbook/next.config.mjs'), 'ignoreBuildErrors: true');
    assert.match(git('show', ':packages/gitbook/scripts/download-fonts.ts'), 'GITBOOK_SKIP_FONT_DOWNLOAD');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test.run();
