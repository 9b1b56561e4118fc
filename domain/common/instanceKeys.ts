import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret key of a data directory (`DATA_DIR/keys/<name>.key`): made once (32 random bytes,
 * readable by its owner only) and shared by every process over that directory, so what one
 * process signs another accepts.
 */
export function instanceKey(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, 'keys', `${name}.key`);
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32), { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first
  }
  return readFileSync(file);
}

const read = new Map<string, Buffer>();

/** instanceKey, read once per process: for keys used on every request (tokens signed and checked). */
export function cachedInstanceKey(dataDir: string, name: string): Buffer {
  const id = `${dataDir}\0${name}`;
  let key = read.get(id);
  if (!key) read.set(id, (key = instanceKey(dataDir, name)));
  return key;
}
