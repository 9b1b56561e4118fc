import { readFileBytes } from '../../engine/readFileBytes.js';
import { openSpaceRepository } from '../../engine/spaceRepositories.js';
import type { ContentDeps } from '../shared/deps.js';

/** The bytes of one of a space's files, by its blob id. */
export function readSpaceFile(deps: Pick<ContentDeps, 'dataDir'>, spaceId: string, oid: string): Promise<Uint8Array> {
  return readFileBytes(openSpaceRepository(deps.dataDir, spaceId), oid);
}
