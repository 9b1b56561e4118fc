import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { closePageRooms, joinPageRoom, readCollabTicket, type PageConnection, type PageRoom } from '../../domain/collaboration/index.js';
import type { ContentDeps } from '../../domain/common/deps.js';
import { log } from '../../domain/common/log.js';
import { findChangeRequest } from '../../storage/changeRequests.js';
import { findSpace } from '../../storage/spaces.js';
import { findUser } from '../../storage/users.js';
import type { Config } from '../config.js';

export const collabPath = '/app/collab';
/** A message of a shared editor: an update as large as a page may be. */
const maxMessageBytes = 8 * 1024 * 1024;
const pingEveryMs = 30_000;

/**
 * Shared editors' connections (WebSocket, at /app/collab): the upgrade is taken when it comes
 * from a page of this site (its Origin) with a ticket the edit page minted (after the API's
 * policy for editing the space); each connection then joins its page's room.
 */
export function acceptCollaboration(server: http.Server, deps: ContentDeps, config: Pick<Config, 'publicUrl'>): { close(): Promise<void> } {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgrade(request, socket, head).catch((error: unknown) => {
      log.warn('A shared editor’s connection failed', { error: (error as Error).message });
      refuse(socket, 500);
    });
  });

  async function upgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(request.url ?? '/', 'http://quire.invalid');
    if (url.pathname !== collabPath) return refuse(socket, 404);
    if (!fromThisSite(request, config)) return refuse(socket, 403);
    const ticket = await readCollabTicket(deps, url.searchParams.get('ticket') ?? '');
    if (!ticket) return refuse(socket, 403);
    const [space, changeRequest, user] = await Promise.all([
      findSpace(deps.db, ticket.spaceId),
      ticket.changeRequestId === null ? null : findChangeRequest(deps.db, ticket.spaceId, ticket.changeRequestId),
      findUser(deps.db, ticket.userId),
    ]);
    // Gone meanwhile: the space, the person, the change request (or its being open), the space's being live.
    const editable = ticket.changeRequestId === null ? space?.editMode === 'live' : changeRequest?.status === 'open';
    if (!space || !user || !editable) return refuse(socket, 410);
    sockets.handleUpgrade(request, socket, head, (ws) => connect(ws, { edited: { space, changeRequest: changeRequest ?? null }, pageId: ticket.pageId }, user));
  }

  function connect(ws: WebSocket, place: Parameters<typeof joinPageRoom>[1], user: PageConnection['user']) {
    const connection: PageConnection = {
      user,
      send: (message) => {
        if (ws.readyState === ws.OPEN) ws.send(message);
      },
      close: (reason) => (reason === 'tooLarge' ? ws.close(1009, 'the page is too large to share') : ws.close(1000, 'closed')),
    };
    let room: PageRoom | undefined;
    const early: Uint8Array[] = []; // messages sent before the room was opened
    let alive = true;
    const ping = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, pingEveryMs);
    ws.on('pong', () => (alive = true));
    ws.on('message', (data: Buffer) => {
      const message = new Uint8Array(data);
      if (!room) return void early.push(message);
      receive(room, message);
    });
    ws.on('close', () => {
      clearInterval(ping);
      room?.leave(connection);
    });
    const receive = (into: PageRoom, message: Uint8Array) => {
      try {
        into.receive(connection, message);
      } catch (error) {
        log.warn('A shared editor sent a message that could not be read', { error: (error as Error).message });
        ws.close(1003, 'unreadable message');
      }
    };
    joinPageRoom(deps, place, connection).then(
      (joined) => {
        room = joined;
        if (ws.readyState !== ws.OPEN) return joined.leave(connection);
        for (const message of early.splice(0)) receive(joined, message);
      },
      (error: unknown) => {
        log.warn('A page’s shared editor could not be opened', { error: (error as Error).message });
        ws.close(1011, 'the page could not be opened');
      },
    );
  }

  return {
    async close() {
      await closePageRooms();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
    },
  };
}

/** A browser's WebSocket carries the Origin of the page that opened it: this site's, or the instance's public URL. */
function fromThisSite(request: http.IncomingMessage, config: Pick<Config, 'publicUrl'>): boolean {
  const origin = request.headers.origin;
  const host = request.headers.host;
  if (!origin || !host) return false;
  const allowed = new Set([`http://${host}`, `https://${host}`, ...(config.publicUrl ? [new URL(config.publicUrl).origin] : [])]);
  return allowed.has(origin);
}

function refuse(socket: Duplex, status: number) {
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Refused'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
