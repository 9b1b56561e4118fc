import { fileSizes } from '../../engine/fileSizes.js';
import { openSpaceRepository } from '../../engine/spaceRepositories.js';
import { readSpaceRevision } from '../../domain/spaces/index.js';
import { spaceOf, type AppContext } from '../context.js';
import { revisionView, type RevisionView } from './revision.js';

/** The revision the path names (`revisionId`), or the space's current one, ready to present. */
export async function revisionOfPath(ctx: AppContext): Promise<RevisionView> {
  const { space } = spaceOf(ctx);
  const revision = await readSpaceRevision(ctx.config, space.id, ctx.params.revisionId);
  return revisionView(space.id, revision, ctx.urls, await fileSizes(openSpaceRepository(ctx.config.dataDir, space.id), revision));
}
