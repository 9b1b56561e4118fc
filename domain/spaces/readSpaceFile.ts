import { readFileBytes } from '../../engine/index.js';
import type { ContentDeps } from '../common/deps.js';

/** The bytes of one of a space's files, by its blob id. */
export function readSpaceFile(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, oid: string): Promise<Uint8Array> {
  return readFileBytes(deps.repositories.open(spaceId), oid);
}
