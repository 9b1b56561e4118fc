import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A PostgreSQL socket that passes bytes to the real one until it is told to stall. */
export interface StallingProxy {
  /** The folder of the proxy's socket, for a `postgresql://user@<folder>/db` URL. */
  dir: string;
  /** Every connection, open or new, stops passing bytes and stays open: a peer gone silent, no reset. */
  stall(): void;
  /** Bytes pass again. */
  resume(): void;
  close(): Promise<void>;
}

/** A Unix socket beside none other (its own folder, PostgreSQL's socket name) in front of `targetSocket`. */
export async function stallingProxy(targetSocket: string): Promise<StallingProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-stalling-'));
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (stalled) socket.pause();
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetSocket);
    track(client);
    track(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(path.join(dir, '.s.PGSQL.5432'), resolve));
  return {
    dir,
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    resume() {
      stalled = false;
      for (const socket of sockets) socket.resume();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
