import { execFile } from 'node:child_process';
import { gitEnvironment, runGit } from './runGit.js';

/** Where git must connect for a remote's host: resolved (and judged) beforehand, so git can't be sent elsewhere by DNS. */
export interface PinnedAddress {
  host: string;
  port: number;
  address: string;
}

export class RemoteGitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteGitError';
  }
}

/** Longest a fetch or push to a remote may take. */
const remoteTimeoutMs = 10 * 60_000;

/**
 * Runs git against a remote repository with the outbound rules: http(s) only, no redirects, the
 * host pinned to the address judged beforehand, never a prompt for credentials, a time limit.
 * Messages name the remote without its credentials.
 */
function remoteGit(gitdir: string, args: string[], pin: PinnedAddress, shownUrl: string): Promise<string> {
  const config = [
    'protocol.allow=never',
    'protocol.http.allow=always',
    'protocol.https.allow=always',
    'http.followRedirects=false',
    `http.curloptResolve=${pin.host}:${pin.port}:${pin.address.includes(':') ? `[${pin.address}]` : pin.address}`,
    'http.lowSpeedLimit=1000',
    'http.lowSpeedTime=60',
    'gc.auto=0',
    'credential.helper=',
  ];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...config.flatMap((setting) => ['-c', setting]), '--git-dir', gitdir, ...args],
      { env: { ...gitEnvironment(), HOME: '/nonexistent', GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '' }, timeout: remoteTimeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const said =
          stderr
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line && !line.startsWith('hint:'))
            .pop() ?? error.message;
        reject(new RemoteGitError(`git ${args[0]} ${shownUrl} failed: ${said.replace(/\/\/[^/@\s]*@/g, '//')}`));
      },
    );
  });
}

/**
 * Fetches one ref of a remote into a ref of the repository's own (`into`, outside refs/heads, so
 * nothing serves or merges it) and returns its commit, or null when the remote has no such ref.
 */
export async function fetchRemoteRef(gitdir: string, remote: { url: string; ref: string; pin: PinnedAddress; shownUrl: string }, into: string): Promise<string | null> {
  const listed = await remoteGit(gitdir, ['ls-remote', '--', remote.url, remote.ref], remote.pin, remote.shownUrl);
  const line = listed.split('\n').find((entry) => entry.endsWith(`\t${remote.ref}`));
  if (!line) return null;
  await remoteGit(gitdir, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', remote.url, `+${remote.ref}:${into}`], remote.pin, remote.shownUrl);
  return line.split('\t')[0]!;
}

/** Pushes a commit of the repository to a remote ref; `force` lets it replace history there. */
export async function pushToRemote(gitdir: string, remote: { url: string; ref: string; pin: PinnedAddress; shownUrl: string }, commit: string, force: boolean): Promise<void> {
  await remoteGit(gitdir, ['push', '--quiet', '--', remote.url, `${force ? '+' : ''}${commit}:${remote.ref}`], remote.pin, remote.shownUrl);
}

/** Removes a ref of the repository's own (the fetched remote head, once used). */
export async function deleteOwnRef(gitdir: string, ref: string): Promise<void> {
  await runGit(gitdir, ['update-ref', '-d', ref]).catch(() => undefined);
}
