import { execFile } from 'node:child_process';
import * as assert from 'uvu/assert';

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The real git client, with no configuration of the machine's and never a prompt, run
 * asynchronously (a synchronous run would block the in-process server it talks to).
 */
export function git(cwd: string, ...args: string[]): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.com', '-c', 'init.defaultBranch=main', ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** git that must succeed: its output, trimmed. */
export async function ok(cwd: string, ...args: string[]): Promise<string> {
  const run = await git(cwd, ...args);
  assert.is(run.code, 0, `git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout.trim();
}
