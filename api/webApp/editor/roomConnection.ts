import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

/** The room's notices (domain/collaboration: RoomNotice), as the editor reads them. */
export type Notice =
  | { type: 'title'; title: string }
  | { type: 'status'; state: 'saved' | 'saving' | 'unsaved' | 'problem'; message?: string; head?: string }
  | { type: 'conflict'; written: string; base: string; title: string };

const types = { sync: 0, awareness: 1, control: 100 };

/**
 * This editor's connection to its page's room: the shared document and the writers' presence
 * (y-protocols' sync and awareness over a WebSocket), and the room's notices. A dropped connection
 * is opened again with a fresh ticket; the document then catches up both ways.
 */
export class RoomConnection {
  readonly doc = new Y.Doc();
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  private socket: WebSocket | undefined;
  private closing = false;

  constructor(
    private url: string,
    private readonly handlers: { notice(notice: Notice): void; connected(connected: boolean): void; freshUrl(): Promise<string> },
  ) {
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== this) this.send(types.sync, (encoder) => syncProtocol.writeUpdate(encoder, update));
    });
    this.awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      if (origin === this) return;
      const changed = [...added, ...updated, ...removed];
      this.send(types.awareness, (encoder) => encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed)));
    });
  }

  /** Opens the connection; resolves once the document is the room's (or rejects after `timeoutMs`). */
  connect(timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the shared editor did not answer')), timeoutMs);
      this.open(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  control(message: Record<string, unknown>): void {
    this.send(types.control, (encoder) => encoding.writeVarString(encoder, JSON.stringify(message)));
  }

  close(): void {
    this.closing = true;
    this.socket?.close();
  }

  private open(synced?: () => void) {
    const socket = new WebSocket(new URL(this.url, location.href).href.replace(/^http/, 'ws'));
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.handlers.connected(true);
      this.send(types.sync, (encoder) => syncProtocol.writeSyncStep1(encoder, this.doc));
      if (this.awareness.getLocalState() !== null) {
        this.send(types.awareness, (encoder) => encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(this.awareness, [this.doc.clientID])));
      }
    };
    socket.onmessage = (event) => {
      const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
      const type = decoding.readVarUint(decoder);
      if (type === types.sync) {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, types.sync);
        const kind = syncProtocol.readSyncMessage(decoder, encoder, this.doc, this);
        if (encoding.length(encoder) > 1) socket.send(encoding.toUint8Array(encoder));
        if (kind === syncProtocol.messageYjsSyncStep2) synced?.();
      } else if (type === types.awareness) {
        awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), this);
      } else if (type === types.control) {
        this.handlers.notice(JSON.parse(decoding.readVarString(decoder)) as Notice);
      }
    };
    socket.onclose = (event) => {
      // 1009: the room refused what this editor added (too large); it says so, and no reconnection would help.
      if (event.code === 1009) this.closing = true;
      this.handlers.connected(false);
      const others = [...this.awareness.getStates().keys()].filter((id) => id !== this.doc.clientID);
      awarenessProtocol.removeAwarenessStates(this.awareness, others, this);
      if (this.closing) return;
      setTimeout(() => {
        void this.handlers.freshUrl().then(
          (url) => {
            this.url = url;
            this.open();
          },
          () => socket.onclose?.(new CloseEvent('close')),
        );
      }, 1000);
    };
  }

  private send(type: number, write: (encoder: encoding.Encoder) => void) {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, type);
    write(encoder);
    this.socket.send(encoding.toUint8Array(encoder));
  }
}
