import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { flushPacket, pktLine } from './pktLine.js';
import { gitEnvironment } from './runGit.js';

export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** The oldest git with `proc-receive` hooks and push options to them (2.29). */
const minimumVersion = [2, 29];

/**
 * The system git's version, checked once at start: Quire hands all pack work to it. Throws with
 * what to do when it is missing or too old.
 */
export function checkGitBinary(): string {
  const found = spawnSync('git', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(`Quire serves spaces over git with the system git, which is not on PATH (${found.error?.message ?? found.stderr.trim()}): install git ${minimumVersion.join('.')} or later`);
  }
  const version = /(\d+)\.(\d+)/.exec(found.stdout);
  const [major, minor] = [Number(version?.[1]), Number(version?.[2])];
  if (!version || major < minimumVersion[0]! || (major === minimumVersion[0] && minor < minimumVersion[1]!)) {
    throw new Error(`Quire needs git ${minimumVersion.join('.')} or later for its proc-receive hook; PATH has ${found.stdout.trim()}`);
  }
  return found.stdout.trim();
}

/**
 * The `Git-Protocol` a service runs with: never version 2. A v2 fetch may want any object of the
 * repository by its id (gitprotocol-v2: "wants can be anything"; `uploadpack.allowAnySHA1InWant`
 * binds v0 and v1 only), and a repository holds objects its refs no longer reach, such as the
 * change requests of the space a duplicate was copied from. Version 0 serves what the advertised
 * refs reach; clients asking for v2 fall back to it by themselves.
 */
export const servedProtocol = (gitProtocol: string | undefined) => {
  const kept = (gitProtocol ?? '').split(':').filter((part) => part && !part.startsWith('version='));
  return kept.length ? kept.join(':') : undefined;
};

/** What an `info/refs` answer starts with before git's own output: the service line and a flush (gitprotocol-http). */
export function advertisementStart(service: GitService): Buffer {
  return Buffer.concat([pktLine(`# service=${service}\n`), flushPacket]);
}

/**
 * The configuration every service runs with, whatever the repository's or the machine's says:
 * no automatic gc (maintenance is Quire's job), objects checked on the way in.
 */
const serviceConfig = [
  'gc.auto=0',
  // A push larger than this is refused by git before anything is kept.
  `receive.maxInputSize=${1024 * 1024 * 1024}`,
  'receive.autogc=false',
  'receive.fsckObjects=true',
  'uploadpack.allowFilter=true',
  'uploadpack.allowAnySHA1InWant=false',
  // Quire lands a push's refs one by one in proc-receive: it can't make them all or nothing, so it doesn't offer to.
  'receive.advertiseAtomic=false',
];

/**
 * Starts `git upload-pack` or `git receive-pack` on a bare repository in stateless-rpc mode, as
 * smart HTTP needs (gitprotocol-http): `advertise` for the `info/refs` answer. A push runs with
 * Quire's hooks (`hooksPath`): pre-receive checks the objects in quarantine, and every ref is
 * left to proc-receive, so Quire moves refs itself, under its lock.
 */
export function startGitService(
  service: GitService,
  gitdir: string,
  options: { advertise: boolean; gitProtocol?: string; hooksFolder?: string; env?: Record<string, string> },
): ChildProcessWithoutNullStreams {
  const config = [...serviceConfig];
  if (service === 'git-receive-pack') {
    if (!options.advertise && !options.hooksFolder) throw new Error("a push runs with Quire's hooks: name their folder");
    config.push('receive.procReceiveRefs=refs', 'receive.advertisePushOptions=true');
    if (options.hooksFolder) config.push(`core.hooksPath=${options.hooksFolder}`);
  }
  const args = [...config.flatMap((setting) => ['-c', setting]), service.slice('git-'.length), '--stateless-rpc', ...(options.advertise ? ['--advertise-refs'] : []), gitdir];
  return spawn('git', args, {
    env: {
      ...gitEnvironment(),
      HOME: process.env.HOME ?? '/',
      ...(servedProtocol(options.gitProtocol) ? { GIT_PROTOCOL: servedProtocol(options.gitProtocol) } : {}),
      ...options.env,
    },
    stdio: 'pipe',
  });
}
