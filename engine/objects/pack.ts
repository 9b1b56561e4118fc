import fs from 'node:fs/promises';
import { constants, inflateSync } from 'node:zlib';
import { ownedBytes } from '../runtime/cacheBudget.js';
import { applyDelta, readDeltaSize } from './applyDelta.js';
import type { GitObject, ObjectType } from './gitObject.js';
import { deltaBases } from './deltaBases.js';
import { PackIndex } from './packIndex.js';

const types: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const ofsDelta = 6;
const refDelta = 7;

interface EntryHeader {
  type: number;
  size: number;
  /** Where the compressed data starts. */
  dataAt: number;
  /** OFS_DELTA: the base's offset in this pack. */
  baseOffset?: number;
  /** REF_DELTA: the base's id, anywhere in the repository. */
  baseOid?: string;
}

/**
 * One pack file, read in place: an entry's bytes come from a positional read on a file handle
 * kept open (never the whole pack in memory), are inflated with Node's zlib, and deltas are
 * rebuilt on bases kept in a small shared cache.
 */
export class Pack {
  private constructor(
    readonly path: string,
    private readonly handle: fs.FileHandle,
    readonly index: PackIndex,
  ) {}

  static async open(packPath: string, idxPath: string): Promise<Pack> {
    const handle = await fs.open(packPath, 'r');
    try {
      const [idx, stat] = await Promise.all([fs.readFile(idxPath), handle.stat()]);
      return new Pack(packPath, handle, new PackIndex(idx, stat.size));
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** The object at `offset`; `readByOid` finds the base of a REF_DELTA elsewhere in the repository. */
  async read(offset: number, readByOid: (oid: string) => Promise<GitObject>): Promise<GitObject> {
    const entry = await this.readEntry(offset);
    const header = parseHeader(entry, offset);
    const data = inflateSync(entry.subarray(header.dataAt - offset));
    if (header.type !== ofsDelta && header.type !== refDelta) return { type: types[header.type]!, data };
    const base = await this.readBase(header, readByOid);
    return { type: base.type, data: applyDelta(base.data, data) };
  }

  /** The size of the object at `offset`, inflating no more than a delta's first bytes. */
  async size(offset: number): Promise<number> {
    const entry = await this.readEntry(offset, 512);
    const header = parseHeader(entry, offset);
    if (header.type !== ofsDelta && header.type !== refDelta) return header.size;
    const delta = inflateSync(entry.subarray(header.dataAt - offset), { finishFlush: constants.Z_SYNC_FLUSH });
    return readDeltaSize(delta, readDeltaSize(delta, 0)[1])[0];
  }

  private async readBase(header: EntryHeader, readByOid: (oid: string) => Promise<GitObject>): Promise<GitObject> {
    if (header.baseOid !== undefined) return readByOid(header.baseOid);
    const key = `${this.path}:${header.baseOffset}`;
    return deltaBases.through(key, async () => {
      const base = await this.read(header.baseOffset!, readByOid);
      return { type: base.type, data: ownedBytes(base.data) };
    });
  }

  private async readEntry(offset: number, atMost = Infinity): Promise<Buffer> {
    const length = Math.min(this.index.endOf(offset) - offset, atMost);
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  }
}

function parseHeader(entry: Buffer, offset: number): EntryHeader {
  let byte = entry[0]!;
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let position = 1;
  for (let shift = 4; byte & 0x80; shift += 7) {
    byte = entry[position++]!;
    size += (byte & 0x7f) * 2 ** shift;
  }
  if (type === ofsDelta) {
    byte = entry[position++]!;
    let distance = byte & 0x7f;
    while (byte & 0x80) {
      byte = entry[position++]!;
      distance = (distance + 1) * 128 + (byte & 0x7f);
    }
    return { type, size, dataAt: offset + position, baseOffset: offset - distance };
  }
  if (type === refDelta) {
    const baseOid = entry.subarray(position, position + 20).toString('hex');
    return { type, size, dataAt: offset + position + 20, baseOid };
  }
  if (!types[type]) throw new Error(`pack entry at ${offset} has an unknown type ${type}`);
  return { type, size, dataAt: offset + position };
}
