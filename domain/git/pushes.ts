import {
  branchRef,
  checkPushedTree,
  compareAndSwapBranch,
  isAncestor,
  isValidRefName,
  leaveQuarantine,
  mergeBase,
  primaryBranch,
  type PushHandlers,
  readBranch,
  readCommit,
  RefConflictError,
  type RefResult,
  type RefUpdate,
  type Repository,
  RepositoryBusyError,
  withQuarantine,
  withRepositoryLock,
} from '../../engine/index.js';
import { addContributor, findChangeRequest, type ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { openChangeRequestAt, ruleSkippedByDirectChange } from '../changeRequests/index.js';
import type { ContentDeps } from '../common/deps.js';
import { largestFileBytes } from '../common/limits.js';
import { primaryBranchMoved } from '../spaces/index.js';
import { recordAudit, type Actor, type AuditedChange } from '../audit/index.js';
import { deleteAuditEvent } from '../../storage/auditEvents.js';

export interface Pusher {
  space: SpaceRecord;
  user: UserRecord;
  /** Who the audit log says moved a branch. */
  actor: Actor;
  /** Whether the pusher may land changes on the primary branch (the merge role). */
  mayMerge: boolean;
  /** Where a change request is seen, printed to the pusher. */
  changeRequestUrl: (changeRequest: ChangeRequestRecord) => string;
}

const zeroOid = '0'.repeat(40);
const short = (oid: string) => oid.slice(0, 7);
const primaryRef = branchRef(primaryBranch);
const changeRequestRef = /^refs\/heads\/(change-requests\/([1-9][0-9]{0,15})(?:-[^/]*)?)$/;
const forPrimary = /^refs\/for\/main(\/.*)?$/;

/**
 * What a push may do, decided by Quire in git's hooks. Before anything lands, the tree each ref
 * would point at is checked (pre-receive, objects in quarantine: a refusal leaves nothing behind).
 * Then each ref on its own (proc-receive), Quire moving it under the repository lock as an API
 * write would: `main` fast-forwards only, for those who may merge, where no merge rule would be
 * skipped; `change-requests/<n>-…` updates that open change request; `refs/for/main` opens one.
 */
export function pushHandlers(deps: ContentDeps, pusher: Pusher): PushHandlers {
  const repo = deps.repositories.open(pusher.space.id);
  return {
    async check(updates, quarantine) {
      // Before any work: a push of a thousand refs cost a git process each (82 s of the server's time).
      if (updates.length > maxRefUpdates) return [`this push updates ${updates.length} refs; a push may update at most ${maxRefUpdates}: push them in parts`];
      const badNames = updates.filter((update) => !isValidRefName(update.ref)).map((update) => `${JSON.stringify(update.ref)} is not a valid ref name (git check-ref-format)`);
      if (badNames.length) return badNames;
      if (!quarantine) return [];
      const view = withQuarantine(repo, quarantine);
      try {
        const problems: string[] = [];
        for (const update of updates) {
          if (update.newOid === zeroOid) continue;
          // Against the ref as it is, never the old id the client names (a forged one hid the files it brought);
          // a ref that doesn't exist yet (refs/for/main, a new branch) against main.
          const base = (await readRef(repo, update.ref)) ?? (await readBranch(repo, primaryBranch));
          problems.push(...(await checkPushedTree(view, update.newOid, base, { maxFileBytes: largestFileBytes })));
        }
        return problems;
      } finally {
        leaveQuarantine(quarantine);
      }
    },
    async land(updates, options, say) {
      const results: RefResult[] = [];
      for (const update of updates) results.push(await landOne(deps, repo, pusher, update, options, say));
      return results;
    },
  };
}

/** The most refs one push may update. */
const maxRefUpdates = 100;

/** A branch's commit, or undefined for a ref that isn't a branch or doesn't exist. */
async function readRef(repo: Repository, ref: string): Promise<string | undefined> {
  if (!ref.startsWith('refs/heads/')) return undefined;
  return (await readBranch(repo, ref.slice('refs/heads/'.length))) ?? undefined;
}

async function landOne(deps: ContentDeps, repo: Repository, pusher: Pusher, update: RefUpdate, options: string[], say: (line: string) => void): Promise<RefResult> {
  const refuse = (reason: string): RefResult => ({ ref: update.ref, ok: false, reason });
  if (!isValidRefName(update.ref)) return refuse('not a valid ref name (git check-ref-format)');
  if (pusher.space.editMode === 'locked') return refuse('the space is locked: nothing can be written to it');
  try {
    if (update.ref === primaryRef) return await landOnPrimary(deps, repo, pusher, update, say);
    const changeRequest = changeRequestRef.exec(update.ref);
    if (changeRequest) return await landOnChangeRequest(deps, repo, pusher, update, changeRequest[1]!, changeRequest[2]!, say);
    if (forPrimary.test(update.ref)) return await openFromPush(deps, repo, pusher, update, options, say);
    if (update.ref.startsWith('refs/for/')) return refuse(`change requests merge into ${primaryBranch}: push to refs/for/${primaryBranch}`);
    return refuse(
      `a space keeps its content on ${primaryBranch} and its change requests' branches: push to ${primaryBranch}, to refs/for/${primaryBranch} (opens a change request) or to a change-requests/<number>-… branch`,
    );
  } catch (error) {
    if (error instanceof RefConflictError) return refuse('the branch moved while this push was checked: fetch, then push again');
    if (error instanceof RepositoryBusyError) return refuse(`the space is busy (${error.message}): push again`);
    throw error;
  }
}

async function landOnPrimary(deps: ContentDeps, repo: Repository, pusher: Pusher, update: RefUpdate, say: (line: string) => void): Promise<RefResult> {
  const refuse = (reason: string): RefResult => ({ ref: update.ref, ok: false, reason });
  if (update.newOid === zeroOid) return refuse(`${primaryBranch} can't be deleted`);
  if (!pusher.mayMerge) return refuse(`pushing to ${primaryBranch} needs the role that merges change requests: push to refs/for/${primaryBranch} to open a change request`);
  const rule = await ruleSkippedByDirectChange(deps.db, pusher.space, pusher.user.id);
  if (rule) return refuse(`the merge rule ${rule} applies to this space: push to refs/for/${primaryBranch} to open a change request`);
  const moved = await moveBranch(deps, repo, primaryBranch, update, { fastForwardOnly: true, audit: refMoved(pusher, update) });
  if (moved) return refuse(moved);
  await primaryBranchMoved(deps, pusher.space.id);
  say(`${primaryBranch} is at ${short(update.newOid)}: the space's new revision.`);
  return { ref: update.ref, ok: true };
}

async function landOnChangeRequest(deps: ContentDeps, repo: Repository, pusher: Pusher, update: RefUpdate, branch: string, number: string, say: (line: string) => void): Promise<RefResult> {
  const refuse = (reason: string): RefResult => ({ ref: update.ref, ok: false, reason });
  const changeRequest = await findChangeRequest(deps.db, pusher.space.id, number);
  if (!changeRequest || changeRequest.branch !== branch) return refuse(`no change request of this space has the branch ${branch}: push to refs/for/${primaryBranch} to open one`);
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') return refuse(`change request #${number} is ${changeRequest.status}: its content can no longer change`);
  if (update.newOid === zeroOid) return refuse(`a change request's branch goes with it: archive change request #${number} instead`);
  // A change request's branch is its author's work in progress: rewritten history (a rebase) is accepted.
  // Its status is read again under the lock: a merge or an archive that won the race leaves it as it is.
  const moved = await moveBranch(deps, repo, branch, update, {
    fastForwardOnly: false,
    audit: refMoved(pusher, update, changeRequest),
    stillOpen: async () => {
      const now = await findChangeRequest(deps.db, pusher.space.id, number);
      return now && now.status !== 'merged' && now.status !== 'archived' ? null : `change request #${number} is ${now?.status ?? 'gone'}: its content can no longer change`;
    },
  });
  if (moved) return refuse(moved);
  await addContributor(deps.db, changeRequest.id, pusher.user.id);
  say(`Change request #${number} updated: ${pusher.changeRequestUrl(changeRequest)}`);
  return { ref: update.ref, ok: true };
}

async function openFromPush(deps: ContentDeps, repo: Repository, pusher: Pusher, update: RefUpdate, options: string[], say: (line: string) => void): Promise<RefResult> {
  const refuse = (reason: string): RefResult => ({ ref: update.ref, ok: false, reason });
  if (update.newOid === zeroOid) return refuse('nothing to delete here: refs/for/… only opens change requests');
  const primary = await readBranch(repo, primaryBranch);
  const initial = primary ? await mergeBase(repo.gitdir, primary, update.newOid) : null;
  if (!initial) return refuse(`the pushed commit shares no history with ${primaryBranch}: fetch and build on it`);
  if (initial === update.newOid) return refuse(`the pushed commit is already in ${primaryBranch}: there is nothing to review`);
  const title = pushOption(options, 'title') ?? (await readCommit(repo, update.newOid)).message.trim().split('\n')[0]!.slice(0, 200);
  const changeRequest = await openChangeRequestAt(deps, { space: pusher.space, subject: title, creator: pusher.user, initial, head: update.newOid });
  await deps.db.transaction(async (tx) => {
    await addContributor(tx, changeRequest.id, pusher.user.id);
    const opened = refMoved(pusher, { ref: branchRef(changeRequest.branch), oldOid: zeroOid, newOid: update.newOid }, changeRequest);
    await recordAudit(tx, pusher.actor, pusher.space.organizationId, opened);
  });
  say(`Change request #${changeRequest.number} opened: ${pusher.changeRequestUrl(changeRequest)}`);
  say(`Push further commits to its branch: git push origin HEAD:${changeRequest.branch}`);
  return { ref: update.ref, ok: true, landedAs: { ref: branchRef(changeRequest.branch), oldOid: zeroOid, newOid: update.newOid } };
}

/** A push option `name=value` (`git push -o title="…"`), its value; the last one wins. */
function pushOption(options: string[], name: string): string | undefined {
  const found = options.filter((option) => option.startsWith(`${name}=`)).pop();
  const value = found?.slice(name.length + 1).trim();
  return value ? value : undefined;
}

/**
 * Moves the branch from where the pusher saw it to the pushed commit, under the repository lock
 * (API writers queue on it) and git's ref lock. Returns why not, or null once moved. The audit
 * event is written under the lock before the branch moves, and removed if it doesn't: a crash in
 * between leaves an event a moment early rather than a move nobody recorded.
 */
async function moveBranch(
  deps: ContentDeps,
  repo: Repository,
  branch: string,
  update: RefUpdate,
  options: { fastForwardOnly: boolean; stillOpen?: () => Promise<string | null>; audit: AuditedChange & { organizationId: string; actor: Actor } },
): Promise<string | null> {
  return withRepositoryLock(repo.gitdir, async () => {
    const closed = await options.stillOpen?.();
    if (closed) return closed;
    const current = await readBranch(repo, branch);
    const expected = update.oldOid === zeroOid ? null : update.oldOid;
    if (current !== expected) return `${branch} is at ${current ? short(current) : 'nothing'}, not where this push started from: fetch, then push again`;
    if (options.fastForwardOnly && current && !(await isAncestor(repo.gitdir, current, update.newOid))) return `not a fast-forward of ${branch}: fetch and merge (or rebase), then push again`;
    const { organizationId, actor, ...change } = options.audit;
    const events = await deps.db.transaction((tx) => recordAudit(tx, actor, organizationId, change));
    try {
      await compareAndSwapBranch(repo, branch, expected, update.newOid);
    } catch (error) {
      await deps.db.transaction(async (tx) => {
        for (const id of events) await deleteAuditEvent(tx, id);
      });
      throw error;
    }
    return null;
  });
}

/** The audit event of a pushed ref move (git.ref_updated). */
function refMoved(pusher: Pusher, update: RefUpdate, changeRequest?: ChangeRequestRecord) {
  return {
    organizationId: pusher.space.organizationId,
    actor: pusher.actor,
    action: 'git.ref_updated' as const,
    target: { type: 'space', id: pusher.space.id, label: pusher.space.title },
    payload: { ref: update.ref, from: update.oldOid === zeroOid ? null : update.oldOid, to: update.newOid, ...(changeRequest && { changeRequest: changeRequest.number }) },
  };
}
