import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/** What a name holds: addresses, or an alias to another name of the zone. */
export type Zone = Record<string, { a?: string[]; cname?: string }>;

/**
 * A name server on loopback (UDP) answering A, AAAA and CNAME questions from `zone`, as an
 * authoritative server would: NXDOMAIN for a name it doesn't hold, no answer for a type the name
 * lacks, the alias followed for an address question. Enough for Quire's hostname checks.
 */
export async function startDnsServer(zone: Zone): Promise<{ server: string; close: () => Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    const reply = answer(query, zone);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return { server: `127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

const types = { A: 1, CNAME: 5, AAAA: 28 };

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at]! > 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

const encodeName = (name: string) => Buffer.concat([...name.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])), Buffer.from([0])]);

function record(name: string, type: number, data: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(1, 2); // IN
  fixed.writeUInt32BE(60, 4); // TTL
  fixed.writeUInt16BE(data.length, 8);
  return Buffer.concat([encodeName(name), fixed, data]);
}

function answer(query: Buffer, zone: Zone): Buffer | undefined {
  if (query.length < 12) return undefined;
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const records: Buffer[] = [];
  let current = name;
  const rcode = zone[name] ? 0 : 3;
  for (let hops = 0; rcode === 0 && hops < 5; hops += 1) {
    const entry = zone[current];
    if (!entry) break;
    if (entry.cname) {
      records.push(record(current, types.CNAME, encodeName(entry.cname)));
      if (type === types.CNAME) break;
      current = entry.cname;
      continue;
    }
    if (type === types.A) for (const address of entry.a ?? []) records.push(record(current, types.A, Buffer.from(address.split('.').map(Number))));
    break;
  }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | rcode, 2); // a response, authoritative, RD echoed
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  return Buffer.concat([header, question, ...records]);
}
