import { randomBytes } from 'node:crypto';
import {
  checkPushedTree,
  commitTree,
  deleteOwnRef,
  fetchRemoteRef,
  firstParentSubjects,
  gitbookRoot,
  hasObject,
  keepRevision,
  type PinnedAddress,
  primaryBranch,
  pushToRemote,
  readBranch,
  readCommit,
  RefConflictError,
  RemoteGitError,
  type Repository,
  subtreeAt,
  withSubtree,
  writeCommit,
} from '../../engine/index.js';
import { findGitSync, recordGitInfo, recordGitOperation, type GitSyncRecord } from '../../storage/gitSync.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { invalidInput, missing, spaceLocked } from '../common/errors.js';
import { largestFileBytes } from '../common/limits.js';
import { log } from '../common/log.js';
import { OutboundFetchError, pinnedAddress } from '../common/outboundFetch.js';
import { authorOf, primaryBranchMoved } from '../spaces/index.js';
import type { GitSyncJob } from '../common/jobs.js';

export interface GitSyncRequest {
  url: string;
  ref: string;
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
  repoProjectDirectory?: string;
  gitInfo?: { provider?: 'github' | 'gitlab'; url?: string };
}

/** A Git Sync operation that can't succeed as asked: recorded as failed, not retried. */
class GitSyncRefused extends Error {}

/** The remote's URL as shown in messages and commits: without its credentials. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@\s]*@/, '//');
  }
}

/**
 * Starts an import or export (a job): checks what can be checked now (an http(s) URL, a full ref,
 * a project folder inside the repository; a locked space takes no import), records the provider
 * details it names, and hands the work to the job.
 */
export async function requestGitSync(deps: JobDeps, input: { space: SpaceRecord; caller: UserRecord; direction: 'import' | 'export'; request: GitSyncRequest }): Promise<void> {
  const { space, request } = input;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw invalidInput(`"url" is not a URL: ${JSON.stringify(withoutCredentials(request.url))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput(`"url" must be an http or https URL, not ${url.protocol.slice(0, -1)}`);
  if (!/^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(request.ref) || request.ref.includes('..') || request.ref.endsWith('/') || request.ref.endsWith('.lock')) {
    throw invalidInput(`"ref" must be a full branch or tag name such as "refs/heads/main", not ${JSON.stringify(request.ref)}`);
  }
  const projectDirectory = request.repoProjectDirectory?.replace(/^\.?\/+|\/+$/g, '') || undefined;
  if (projectDirectory?.split('/').some((segment) => segment === '..' || segment === '.git')) throw invalidInput('"repoProjectDirectory" must be a folder inside the repository');
  if (input.direction === 'import' && space.editMode === 'locked') throw spaceLocked(space.id);
  const repoName = url.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '') || url.host;
  await recordGitInfo(deps.db, space.id, { provider: request.gitInfo?.provider, url: request.gitInfo?.url ?? withoutCredentials(request.url).replace(/\.git$/, ''), repoName });
  await recordGitOperation(deps.db, space.id, { direction: input.direction, state: 'running' });
  await deps.jobs.startGitSync({
    direction: input.direction,
    spaceId: space.id,
    url: request.url,
    ref: request.ref,
    requestedBy: input.caller.id,
    force: request.force ?? false,
    ...(request.standalone ? { standalone: true } : {}),
    ...(request.commitMessage !== undefined ? { commitMessage: request.commitMessage } : {}),
    ...(projectDirectory ? { projectDirectory } : {}),
  });
}

/** The Git Sync details of a space, or the 404 that says none is set up. */
export async function readGitSync(deps: Pick<ContentDeps, 'db'>, space: SpaceRecord): Promise<GitSyncRecord> {
  const found = await findGitSync(deps.db, space.id);
  if (!found) throw missing(`No Git provider is set up on space ${space.id}: import from or export to a repository first`);
  return found;
}

/**
 * The job's work. A refusal (no such ref, content that breaks the layout, a space changed since
 * its last sync without `force`, a remote that refuses the push or can't be reached) is recorded
 * as the operation's failure and not retried; other errors are left to the job's retries.
 */
export async function runGitSync(deps: ContentDeps, job: GitSyncJob): Promise<{ state: 'success' | 'failure'; commit?: string; message?: string }> {
  const space = await findSpace(deps.db, job.spaceId);
  if (!space) return { state: 'failure', message: `space ${job.spaceId} no longer exists` };
  const user = await findUser(deps.db, job.requestedBy);
  const author = user ? authorOf(user) : { name: 'Quire', email: 'quire@localhost' };
  const repo = deps.repositories.open(space.id);
  const remote = { url: job.url, ref: job.ref, shownUrl: withoutCredentials(job.url) };
  const fetchedRef = `refs/quire/git-sync/${randomBytes(6).toString('hex')}`;
  try {
    const pin = await pinnedAddress(job.url);
    const commit = job.direction === 'import' ? await importInto(deps, space, repo, { ...remote, pin }, job, author, fetchedRef) : await exportFrom(repo, { ...remote, pin }, job, author, fetchedRef);
    await recordGitOperation(deps.db, space.id, { direction: job.direction, state: 'success', commit });
    return { state: 'success', commit };
  } catch (error) {
    if (!(error instanceof GitSyncRefused || error instanceof RemoteGitError || error instanceof OutboundFetchError)) throw error;
    log.warn(`Git Sync ${job.direction} refused`, { spaceId: space.id, remote: remote.shownUrl, ref: job.ref, reason: error.message });
    await recordGitOperation(deps.db, space.id, { direction: job.direction, state: 'failure', message: error.message });
    return { state: 'failure', message: error.message };
  } finally {
    await deleteOwnRef(repo.gitdir, fetchedRef);
  }
}

type Remote = { url: string; ref: string; shownUrl: string; pin: PinnedAddress };

/**
 * The remote ref's content (its project folder, then `.gitbook.yaml`'s `root` there) becomes the
 * space's next revision on top of its history, checked as a push is; `standalone`: a revision
 * kept beside the history, the primary branch unmoved. Without `force`, a space whose content
 * changed since its last sync is not overwritten.
 */
async function importInto(deps: ContentDeps, space: SpaceRecord, repo: Repository, remote: Remote, job: GitSyncJob, author: { name: string; email: string }, fetchedRef: string): Promise<string> {
  const fetched = await fetchRemoteRef(repo.gitdir, remote, fetchedRef);
  if (!fetched) throw new GitSyncRefused(`${remote.shownUrl} has no ${job.ref}`);
  const project = await subtreeAt(repo, (await readCommit(repo, fetched)).tree, job.projectDirectory ?? '');
  if (!project) throw new GitSyncRefused(`${job.ref} of ${remote.shownUrl} has no folder ${job.projectDirectory}`);
  const rootFolder = await gitbookRoot(repo, project);
  const root = await subtreeAt(repo, project, rootFolder);
  if (!root) throw new GitSyncRefused(`.gitbook.yaml names the root ${rootFolder}, which ${job.ref} of ${remote.shownUrl} does not have`);
  const message = `Import ${job.ref} of ${remote.shownUrl} (${fetched.slice(0, 7)})`;
  const refuseProblems = async (commit: string, base: string | null) => {
    const problems = await checkPushedTree(repo, commit, base, { maxFileBytes: largestFileBytes });
    if (problems.length > 0) throw new GitSyncRefused(`the imported content breaks the Git Sync layout:\n${problems.join('\n')}`);
  };
  if (job.standalone) {
    const head = await readBranch(repo, primaryBranch);
    const commit = await writeCommit(repo, { tree: root, parents: head ? [head] : [], message, author });
    await refuseProblems(commit, head);
    await keepRevision(repo, commit);
    return commit;
  }
  if (space.editMode === 'locked') throw new GitSyncRefused(`space ${space.id} is locked`);
  for (let attempt = 1; ; attempt += 1) {
    const head = await readBranch(repo, primaryBranch);
    if (!job.force) await refuseIfChangedSinceSync(deps, space.id, head);
    if (head && (await readCommit(repo, head)).tree === root) return head;
    try {
      const { commit } = await commitTree({
        repo,
        branch: primaryBranch,
        expected: head,
        tree: root,
        parents: head ? [head] : [],
        message,
        author,
        beforeLanding: (commit) => refuseProblems(commit, head),
      });
      await primaryBranchMoved(deps, space.id);
      return commit;
    } catch (error) {
      if (!(error instanceof RefConflictError) || attempt === 3) throw error;
    }
  }
}

async function refuseIfChangedSinceSync(deps: ContentDeps, spaceId: string, head: string | null): Promise<void> {
  const last = (await findGitSync(deps.db, spaceId))?.lastCommit;
  if (last && head && head !== last) throw new GitSyncRefused(`the space changed since its last Git Sync (${last.slice(0, 7)} → ${head.slice(0, 7)}): import with "force" to replace its content`);
}

/** The trailer an export's commit carries: the space revision it exported, where the next export's list of change requests starts. */
const revisionTrailer = /^Quire-Revision: ([0-9a-f]{40})$/m;
const mergeSubject = /^Merge change request #(\d+)(?:: (.*))?$/;

/**
 * The space's current revision as a commit on the remote ref: its tree (in the project folder of
 * the remote's tree when one is named), the remote's head as parent, the caller's message with a
 * `GITBOOK-<number>: <subject>` line per change request merged since the last export and a
 * `Quire-Revision` trailer. Pushed fast-forward unless `force`.
 */
async function exportFrom(repo: Repository, remote: Remote, job: GitSyncJob, author: { name: string; email: string }, fetchedRef: string): Promise<string> {
  const head = await readBranch(repo, primaryBranch);
  if (!head) throw new GitSyncRefused('the space has no content to export');
  const remoteHead = await fetchRemoteRef(repo.gitdir, remote, fetchedRef);
  const remoteCommit = remoteHead ? await readCommit(repo, remoteHead) : null;
  const spaceTree = (await readCommit(repo, head)).tree;
  const tree = job.projectDirectory ? await withSubtree(repo, remoteCommit?.tree ?? null, job.projectDirectory, spaceTree) : spaceTree;
  if (remoteCommit && remoteCommit.tree === tree) return head;
  const previous = remoteCommit ? revisionTrailer.exec(remoteCommit.message)?.[1] : undefined;
  const since = previous && (await hasObject(repo, previous, 'commit')) ? previous : null;
  const merged = (await firstParentSubjects(repo, since, head)).flatMap((subject) => {
    const match = mergeSubject.exec(subject);
    return match ? [`GITBOOK-${match[1]}: ${match[2] ?? ''}`.trimEnd()] : [];
  });
  const message = [(job.commitMessage ?? '').trim() || 'Export from Quire', ...(merged.length ? ['', ...merged] : []), '', `Quire-Revision: ${head}`].join('\n');
  const commit = await writeCommit(repo, { tree, parents: remoteHead ? [remoteHead] : [], message, author });
  await pushToRemote(repo.gitdir, remote, commit, job.force);
  return head;
}

export type { GitSyncJob } from '../common/jobs.js';
