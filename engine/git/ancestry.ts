import { execFile } from 'node:child_process';

/** Runs git on a bare repository and resolves with its exit code and output (no configuration of the machine's). */
function runGit(gitdir: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', ['--git-dir', gitdir, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      if (code === -1) reject(error);
      else resolve({ code, stdout: stdout.trim() });
    });
  });
}

/** Whether `ancestor` is `commit` or one of its ancestors (a fast-forward from `ancestor` to `commit`). */
export async function isAncestor(gitdir: string, ancestor: string, commit: string): Promise<boolean> {
  const { code } = await runGit(gitdir, ['merge-base', '--is-ancestor', ancestor, commit]);
  if (code > 1) throw new Error(`git merge-base --is-ancestor ${ancestor} ${commit} failed (${code})`);
  return code === 0;
}

/** The best common ancestor of two commits, or null when they share no history. */
export async function mergeBase(gitdir: string, one: string, other: string): Promise<string | null> {
  const { code, stdout } = await runGit(gitdir, ['merge-base', one, other]);
  if (code === 1) return null;
  if (code !== 0) throw new Error(`git merge-base ${one} ${other} failed (${code})`);
  return stdout.split('\n')[0] ?? null;
}
