import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { type GitService, registerPush, startGitService } from '../../engine/index.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { ContentDeps } from '../common/deps.js';
import { pushHandlers, type Pusher } from './pushes.js';

export interface GitExchange {
  space: SpaceRecord;
  service: GitService;
  /** The `info/refs` answer (refs and capabilities) rather than a pack exchange. */
  advertise: boolean;
  /** The client's `Git-Protocol` header (protocol v2 for fetches). */
  gitProtocol?: string;
}

/**
 * Starts the system git on the space's repository for one smart-HTTP exchange: its stdin takes
 * the request body, its stdout is the answer. A push (`git-receive-pack`, not `advertise`) runs
 * with Quire's hooks deciding what lands (see pushes.ts), answering until git exits.
 */
export async function startGitExchange(deps: ContentDeps, exchange: GitExchange, pusher?: Omit<Pusher, 'space'>): Promise<ChildProcessWithoutNullStreams> {
  const gitdir = deps.repositories.open(exchange.space.id).gitdir;
  const options = { advertise: exchange.advertise, gitProtocol: exchange.gitProtocol };
  if (exchange.service === 'git-upload-pack' || exchange.advertise) return startGitService(exchange.service, gitdir, options);
  if (!pusher) throw new Error('a push needs its pusher');
  const push = await registerPush(pushHandlers(deps, { ...pusher, space: exchange.space }));
  const child = startGitService(exchange.service, gitdir, { ...options, hooksFolder: push.hooksFolder, env: push.env });
  child.once('close', push.release);
  child.once('error', push.release);
  return child;
}
