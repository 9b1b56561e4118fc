import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { installHooks, type RelayedHook } from './hookRelay.js';
import { flushPacket, PacketReader, pktLine } from './pktLine.js';
import { isProcessAlive } from '../internal/processAlive.js';

/** One ref a push asks to move: `oldOid` is all zeros for a new ref, `newOid` for a deletion. */
export interface RefUpdate {
  oldOid: string;
  newOid: string;
  ref: string;
}

export type RefResult =
  | { ref: string; ok: true; /** Where the push landed instead (a change request opened by `refs/for/…`). */ landedAs?: { ref: string; oldOid: string; newOid: string } }
  | { ref: string; ok: false; reason: string };

/** What Quire decides for one push, called from its hooks. */
export interface PushHandlers {
  /**
   * Before anything lands, with the pushed objects still in quarantine (an object folder read
   * before the repository's): the problems found refuse the whole push, its objects discarded.
   */
  check(updates: RefUpdate[], quarantine: string | undefined, pushOptions: string[]): Promise<string[]>;
  /** Moves (or refuses) each ref itself; `say` prints a `remote:` line to the pusher. */
  land(updates: RefUpdate[], pushOptions: string[], say: (line: string) => void): Promise<RefResult[]>;
}

interface HookChannel {
  socketPath: string;
  hooksFolder: string;
  server: net.Server;
  folder: string;
}

const pushes = new Map<string, PushHandlers>();
let channel: Promise<HookChannel> | undefined;

/**
 * Registers a push about to start: the environment to give `git receive-pack` (its hooks find
 * this process through it) and the handlers they will call. `release` once git has exited.
 */
export async function registerPush(handlers: PushHandlers): Promise<{ env: Record<string, string>; hooksFolder: string; release: () => void }> {
  let open = await (channel ??= openChannel());
  // A long-running server's temporary folder may be swept (systemd-tmpfiles, tmpreaper): made again.
  if (!existsSync(open.socketPath) || !existsSync(open.hooksFolder)) {
    await closeHookChannel();
    open = await (channel ??= openChannel());
  }
  const { socketPath, hooksFolder } = open;
  const id = randomBytes(16).toString('hex');
  pushes.set(id, handlers);
  return { env: { QUIRE_GIT_HOOKS_SOCKET: socketPath, QUIRE_GIT_PUSH: id }, hooksFolder, release: () => pushes.delete(id) };
}

/** Closes the socket the hooks call (at shutdown) and removes its folder. */
export async function closeHookChannel(): Promise<void> {
  const open = channel;
  channel = undefined;
  if (!open) return;
  const { server, folder } = await open;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
}

/**
 * The channel folders' names hold their host and process id: a process that was killed can't
 * remove its own. The host tells apart processes of containers that share a temporary folder but
 * not their process ids.
 */
const folderPrefix = 'quire-git-hooks-';
/** Short, as the socket's whole path must fit in about 100 bytes. */
const hostTag = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** A Unix socket in a folder only this user can enter (mkdtemp makes it 0700), and the hooks beside it. */
async function openChannel(): Promise<HookChannel> {
  sweepAbandonedChannels();
  const folder = mkdtempSync(path.join(tmpdir(), `${folderPrefix}${hostTag}-${process.pid}-`));
  const socketPath = path.join(folder, 'hooks.sock');
  const hooksFolder = path.join(folder, 'hooks');
  installHooks(hooksFolder);
  const server = net.createServer({ allowHalfOpen: true }, (socket) => void serveHook(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  server.unref();
  return { socketPath, hooksFolder, server, folder };
}

/** Removes this user's channel folders on this host whose process is gone (killed before it could close its channel). */
function sweepAbandonedChannels(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const [, host, pid] = /^quire-git-hooks-([0-9a-f]{8})-(\d+)-/.exec(name) ?? [];
    if (host !== hostTag || !pid || Number(pid) === process.pid || isProcessAlive(Number(pid))) continue;
    const folder = path.join(tmpdir(), name);
    try {
      if (statSync(folder).uid === process.getuid?.()) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

function frame(channelNumber: 1 | 2 | 3, data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = channelNumber;
  header.writeUInt32BE(data.length, 1);
  return Buffer.concat([header, data]);
}

/** One hook run: its header line, then its stdin, answered with stdout/stderr frames and an exit code. */
async function serveHook(socket: net.Socket): Promise<void> {
  const stdin = new PassThrough();
  let header = '';
  let headerRead: (value: string) => void;
  const headerLine = new Promise<string>((resolve) => (headerRead = resolve));
  let inHeader = true;
  socket.on('data', (chunk: Buffer) => {
    if (!inHeader) return void stdin.write(chunk);
    const newline = chunk.indexOf(0x0a);
    if (newline === -1) return void (header += chunk.toString('utf8'));
    inHeader = false;
    header += chunk.toString('utf8', 0, newline);
    headerRead(header);
    if (newline + 1 < chunk.length) stdin.write(chunk.subarray(newline + 1));
  });
  socket.on('end', () => stdin.end());
  socket.on('error', () => stdin.destroy());
  const stdout = (data: Buffer) => socket.write(frame(1, data));
  const stderr = (text: string) => socket.write(frame(2, Buffer.from(`${text}\n`)));
  let code = 1;
  try {
    const { hook, env } = JSON.parse(await headerLine) as { hook: RelayedHook; env: Record<string, string> };
    const handlers = pushes.get(env.QUIRE_GIT_PUSH ?? '');
    if (!handlers) throw new Error('this push is not known to Quire (did the server restart?)');
    code = hook === 'pre-receive' ? await preReceive(handlers, stdin, env, stderr) : await procReceive(handlers, stdin, stdout, stderr);
  } catch (error) {
    stderr(`Quire refused the push: ${(error as Error).message}`);
    code = 1;
  }
  socket.end(frame(3, Buffer.from([code])));
}

const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** `<old-oid> <new-oid> <ref>`: the ref is the whole rest of the line, so a name with a space is seen (and refused) whole. */
const parseUpdate = (line: string): RefUpdate => {
  const [oldOid = '', newOid = '', ...ref] = line.split(' ');
  return { oldOid, newOid, ref: ref.join(' ') };
};

/** `pre-receive`: the updates on stdin, the push options in GIT_PUSH_OPTION_<n>; non-zero refuses everything. */
async function preReceive(handlers: PushHandlers, stdin: NodeJS.ReadableStream, env: Record<string, string>, stderr: (text: string) => void): Promise<number> {
  const updates = (await readAll(stdin)).split('\n').filter(Boolean).map(parseUpdate);
  const count = Number(env.GIT_PUSH_OPTION_COUNT ?? 0);
  const options = Array.from({ length: count }, (_, index) => env[`GIT_PUSH_OPTION_${index}`] ?? '');
  const problems = await handlers.check(updates, env.GIT_QUARANTINE_PATH ?? undefined, options);
  for (const problem of problems) stderr(`error: ${problem}`);
  return problems.length > 0 ? 1 : 0;
}

/**
 * `proc-receive` (githooks(5)): version negotiation, the commands, the push options when both
 * sides want them, then one result per command: `ok <ref>` (with `option refname …` etc. when the
 * push landed elsewhere) or `ng <ref> <reason>`.
 */
async function procReceive(handlers: PushHandlers, stdin: NodeJS.ReadableStream, stdout: (data: Buffer) => void, stderr: (text: string) => void): Promise<number> {
  const reader = new PacketReader(stdin);
  const [version = ''] = await reader.untilFlush();
  const offered = version.split('\0')[1]?.split(' ') ?? [];
  const wantsOptions = offered.includes('push-options');
  stdout(Buffer.concat([pktLine(`version=1\0${wantsOptions ? 'push-options' : ''}`), flushPacket]));
  const updates = (await reader.untilFlush()).map(parseUpdate);
  const options = wantsOptions ? await reader.untilFlush() : [];
  const results = await handlers.land(updates, options, stderr);
  const lines: Buffer[] = [];
  for (const result of results) {
    if (!result.ok) lines.push(pktLine(`ng ${result.ref} ${result.reason.replace(/\n/g, ' ')}`));
    else {
      lines.push(pktLine(`ok ${result.ref}`));
      if (result.landedAs) {
        lines.push(pktLine(`option refname ${result.landedAs.ref}`), pktLine(`option old-oid ${result.landedAs.oldOid}`), pktLine(`option new-oid ${result.landedAs.newOid}`));
      }
    }
  }
  stdout(Buffer.concat([...lines, flushPacket]));
  return 0;
}
