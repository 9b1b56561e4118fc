import { execFile } from 'node:child_process';

/** The environment Quire runs the system git in: the machine's and the user's git configuration don't apply. */
export const gitEnvironment = (): Record<string, string> => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' });

/** Runs git on a bare repository; resolves with its exit code and output whatever the code (rejects only when git can't run). */
export function runGit(gitdir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', ['--git-dir', gitdir, ...args], { env: gitEnvironment(), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      if (code === -1) reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
}

/** runGit, failing with git's own message unless it succeeds; its output. */
export async function gitOrFail(gitdir: string, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runGit(gitdir, args);
  if (code !== 0) throw new Error(`git ${args.join(' ')} failed: ${stderr.trim() || `exit code ${code}`}`);
  return stdout;
}
