/** Reads a little-endian base-128 number (a delta's sizes), returning it and the position after it. */
export function readDeltaSize(delta: Buffer, start: number): [number, number] {
  let value = 0;
  let shift = 0;
  let position = start;
  for (;;) {
    const byte = delta[position++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return [value, position];
  }
}

/** Rebuilds an object from its base and a git delta (copy and insert instructions). */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  const [baseSize, afterBase] = readDeltaSize(delta, 0);
  if (baseSize !== base.length) throw new Error(`delta expects a base of ${baseSize} bytes, got ${base.length}`);
  const [resultSize, start] = readDeltaSize(delta, afterBase);
  const result = Buffer.allocUnsafe(resultSize);
  let written = 0;
  let position = start;
  while (position < delta.length) {
    const instruction = delta[position++]!;
    if (instruction & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit += 1) if (instruction & (1 << bit)) offset += delta[position++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit += 1) if (instruction & (0x10 << bit)) size += delta[position++]! << (8 * bit);
      if (size === 0) size = 0x10000;
      written += base.copy(result, written, offset, offset + size);
    } else if (instruction > 0) {
      written += delta.copy(result, written, position, position + instruction);
      position += instruction;
    } else {
      throw new Error('delta has a reserved instruction 0');
    }
  }
  if (written !== resultSize) throw new Error(`delta produced ${written} bytes, expected ${resultSize}`);
  return result;
}
