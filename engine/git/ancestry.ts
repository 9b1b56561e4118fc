import { runGit } from './runGit.js';

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
  return stdout.trim().split('\n')[0] ?? null;
}
