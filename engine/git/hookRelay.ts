import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The program git runs as `pre-receive` and `proc-receive`: it carries the hook's input to the
 * Quire process that started `git receive-pack` (over the Unix socket its environment names) and
 * plays back what Quire answers: frames of [channel, length, data], channel 1 its stdout, 2 its
 * stderr, 3 its exit code. Plain CommonJS with Node's builtins only, so it runs as it is, with the
 * Node that runs Quire, from source or built; the decisions are all made in Quire.
 */
const relaySource = String.raw`
const net = require('node:net');
const path = require('node:path');
const env = {};
for (const [name, value] of Object.entries(process.env)) if (name.startsWith('GIT_') || name.startsWith('QUIRE_GIT_')) env[name] = value;
let code = 1;
let pending = Buffer.alloc(0);
const socket = net.connect(process.env.QUIRE_GIT_HOOKS_SOCKET || '');
socket.on('connect', () => {
  socket.write(JSON.stringify({ hook: path.basename(process.argv[1]), env }) + '\n');
  process.stdin.pipe(socket);
});
socket.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
    const channel = pending[0];
    const data = pending.subarray(5, 5 + pending.readUInt32BE(1));
    pending = pending.subarray(5 + data.length);
    if (channel === 1) process.stdout.write(data);
    else if (channel === 2) process.stderr.write(data);
    else code = data[0];
  }
});
socket.on('error', (error) => {
  process.stderr.write('Quire could not check this push: ' + error.message + '\n');
  process.exit(1);
});
socket.on('close', () => process.exit(code));
`;

export const relayedHooks = ['pre-receive', 'proc-receive'] as const;
export type RelayedHook = (typeof relayedHooks)[number];

/**
 * Writes the hooks folder (`core.hooksPath` of Quire's `git receive-pack`): the relay under each
 * hook's name, started by this process's Node, and a package.json that makes it CommonJS wherever
 * the folder is. Written whole and renamed into place, so processes sharing it never run half a file.
 */
export function installHooks(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const files: Array<[string, string, number]> = [
    ['package.json', '{ "type": "commonjs" }\n', 0o644],
    ...relayedHooks.map((hook): [string, string, number] => [hook, `#!${process.execPath}\n${relaySource}`, 0o755]),
  ];
  for (const [name, text, mode] of files) {
    const temporary = path.join(folder, `.${name}.${process.pid}`);
    writeFileSync(temporary, text, { mode });
    renameSync(temporary, path.join(folder, name));
  }
}
