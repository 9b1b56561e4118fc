import { purgeDeletedSpace as purge, type PurgeDeletedSpaceInput } from '../../domain/spaces/index.js';
import type { ContentDeps } from '../../domain/common/deps.js';

export function purgeDeletedSpace(deps: ContentDeps) {
  return (input: PurgeDeletedSpaceInput) => purge(deps, input);
}
