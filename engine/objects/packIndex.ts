export class UnsupportedPackIndex extends Error {
  constructor() {
    super('not a version 2 pack index');
  }
}

/**
 * A pack's `.idx` (version 2), kept in memory (about 30 bytes per object, where the pack holds the
 * objects themselves): finds an object's offset by binary search, and where the entry after it
 * starts, so a read takes exactly one entry's bytes from the pack.
 */
export class PackIndex {
  readonly count: number;
  private readonly namesAt = 8 + 256 * 4;
  private readonly offsetsAt: number;
  private readonly largeOffsetsAt: number;
  private sortedOffsets?: Float64Array;

  constructor(
    private readonly idx: Buffer,
    private readonly packSize: number,
  ) {
    if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) throw new UnsupportedPackIndex();
    this.count = idx.readUInt32BE(8 + 255 * 4);
    this.offsetsAt = this.namesAt + this.count * 24; // names (20 bytes each), then CRCs (4 bytes each)
    this.largeOffsetsAt = this.offsetsAt + this.count * 4;
  }

  /** The object's offset in the pack, or undefined when this pack doesn't hold it. */
  find(oid: Buffer): number | undefined {
    const first = oid[0]!;
    let low = first === 0 ? 0 : this.idx.readUInt32BE(8 + (first - 1) * 4);
    let high = this.idx.readUInt32BE(8 + first * 4);
    while (low < high) {
      const middle = (low + high) >>> 1;
      const at = this.namesAt + middle * 20;
      const order = oid.compare(this.idx, at, at + 20);
      if (order === 0) return this.offsetAt(middle);
      if (order < 0) high = middle;
      else low = middle + 1;
    }
    return undefined;
  }

  /** Where the entry at `offset` ends: the next entry's offset, or the pack's trailing checksum. */
  endOf(offset: number): number {
    const offsets = (this.sortedOffsets ??= this.sortOffsets());
    let low = 0;
    let high = offsets.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (offsets[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    return low < offsets.length ? offsets[low]! : this.packSize - 20;
  }

  private offsetAt(position: number): number {
    const small = this.idx.readUInt32BE(this.offsetsAt + position * 4);
    if (!(small & 0x80000000)) return small;
    return Number(this.idx.readBigUInt64BE(this.largeOffsetsAt + (small & 0x7fffffff) * 8));
  }

  private sortOffsets(): Float64Array {
    const offsets = new Float64Array(this.count);
    for (let position = 0; position < this.count; position += 1) offsets[position] = this.offsetAt(position);
    return offsets.sort();
  }
}
