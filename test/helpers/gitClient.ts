import { execFile, execFileSync } from 'node:child_process';
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
    execFile('git', [...identity, ...args], { cwd, env: cleanEnv(cwd) }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

const identity = ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.com', '-c', 'init.defaultBranch=main'];
const cleanEnv = (home: string) => ({ PATH: process.env.PATH ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' });

/**
 * git run synchronously in a work tree or a bare repository (`-C dir`), with the same clean
 * configuration and identity: its output as git wrote it. For looking into what a test made; a
 * command that talks to the in-process server must use `git` (a synchronous run would block it).
 */
export function gitOut(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...identity, ...args], { encoding: 'utf8', env: cleanEnv(dir), maxBuffer: 64 * 1024 * 1024 });
}

/** gitOut for one value (an object id, a ref, a count): trimmed. */
export const gitValue = (dir: string, ...args: string[]): string => gitOut(dir, ...args).trim();

/** git that must succeed: its output, trimmed. */
export async function ok(cwd: string, ...args: string[]): Promise<string> {
  const run = await git(cwd, ...args);
  assert.is(run.code, 0, `git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout.trim();
}
