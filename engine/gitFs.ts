import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';

/**
 * The file system isomorphic-git writes through: node's, except that every file is written to a
 * temporary name, synced and renamed into place. isomorphic-git writes objects in place and skips
 * any object file that exists, so a crash mid-write would otherwise leave a torn object that later
 * commits reuse.
 */
async function writeFileAtomically(file: string, data: string | Uint8Array, options?: Parameters<typeof fs.writeFile>[2]): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temporary, 'w', typeof options === 'object' && options?.mode ? options.mode : 0o644);
    try {
      await handle.writeFile(data, typeof options === 'string' ? options : options?.encoding ?? undefined);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

export const gitFs = { promises: { ...fs, writeFile: writeFileAtomically } };
