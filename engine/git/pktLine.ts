/**
 * Git's pkt-line framing (gitprotocol-common): four hex digits giving the length of the line
 * including themselves, then the data; `0000` is a flush packet.
 */
export const flushPacket = Buffer.from('0000');

export function pktLine(text: string | Buffer): Buffer {
  const data = typeof text === 'string' ? Buffer.from(text) : text;
  if (data.length > 65516) throw new Error(`a pkt-line carries at most 65516 bytes, not ${data.length}`);
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, '0')), data]);
}

/** A packet read: its data (without a trailing newline), or null for a flush packet. */
export type Packet = string | null;

/**
 * Reads packets from a stream of chunks as they arrive. `next()` resolves with the next packet,
 * or rejects when the stream ends mid-packet or before one.
 */
export class PacketReader {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private waiting: (() => void) | null = null;

  constructor(stream: NodeJS.ReadableStream) {
    stream.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    stream.on('end', () => {
      this.ended = true;
      this.wake();
    });
    stream.on('error', () => {
      this.ended = true;
      this.wake();
    });
  }

  async next(): Promise<Packet> {
    for (;;) {
      if (this.buffer.length >= 4) {
        const length = Number.parseInt(this.buffer.toString('latin1', 0, 4), 16);
        if (Number.isNaN(length) || (length > 0 && length < 4)) throw new Error(`not a pkt-line: ${JSON.stringify(this.buffer.toString('latin1', 0, 4))}`);
        if (length === 0) {
          this.buffer = this.buffer.subarray(4);
          return null;
        }
        if (this.buffer.length >= length) {
          const data = this.buffer.toString('utf8', 4, length);
          this.buffer = this.buffer.subarray(length);
          return data.endsWith('\n') ? data.slice(0, -1) : data;
        }
      }
      if (this.ended) throw new Error('the stream ended in the middle of the pkt-line exchange');
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** Packets up to the next flush packet. */
  async untilFlush(): Promise<string[]> {
    const packets: string[] = [];
    for (let packet = await this.next(); packet !== null; packet = await this.next()) packets.push(packet);
    return packets;
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}
