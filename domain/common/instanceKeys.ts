import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../../storage/db.js';
import { storedInstanceKey } from '../../storage/instanceKeys.js';
import type { ContentDeps } from './deps.js';

export type InstanceKeyName = 'download-urls' | 'site-tokens' | 'site-previews' | 'node-routing' | 'collab-tickets';

const loaded = new WeakMap<Database, Map<InstanceKeyName, Promise<Buffer>>>();

/**
 * A secret key of the instance (32 random bytes), kept in the database so that what one node
 * signs every other accepts; read once per process. A data folder from before keys moved there
 * keeps its key (`DATA_DIR/keys/<name>.key`): it is the one stored, so URLs and tokens already
 * handed out stay valid.
 */
export function instanceKey(deps: Pick<ContentDeps, 'db' | 'dataDir'>, name: InstanceKeyName): Promise<Buffer> {
  let keys = loaded.get(deps.db);
  if (!keys) loaded.set(deps.db, (keys = new Map()));
  let key = keys.get(name);
  if (!key) {
    key = storedInstanceKey(deps.db, name, (legacyKey(deps.dataDir, name) ?? randomBytes(32)).toString('base64')).then((secret) => Buffer.from(secret, 'base64'));
    key.catch(() => keys.delete(name)); // a database that was down is asked again next time
    keys.set(name, key);
  }
  return key;
}

function legacyKey(dataDir: string, name: string): Buffer | undefined {
  try {
    return readFileSync(path.join(dataDir, 'keys', `${name}.key`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
