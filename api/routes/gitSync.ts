import { readGitSync, requestGitSync } from '../../domain/git/index.js';
import { callerOf, jobDeps, spaceOf, type AppContext } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentGitSync } from '../presenters/gitSync.js';
import * as schemas from '../schemas/gitSync.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const gitSyncRoutes = new RouteTable();
const routes = gitSyncRoutes;
const git = '/spaces/:spaceId/git';

routes.post(`${git}/import`, 'importGitRepository', inSpace(spaceActions.merge), handle({ body: schemas.importGitRepository }, importRepository));
routes.post(`${git}/export`, 'exportToGitRepository', inSpace(spaceActions.edit), handle({ body: schemas.exportToGitRepository }, exportRepository));
routes.get(`${git}/info`, 'getSpaceGitInfo', inSpace(spaceActions.view), handle({}, info));
routes.delete(`${git}/legacy-installation`, 'deleteLegacyGitInstallation', inSpace(spaceActions.admin), handle({}, deleteLegacyInstallation));

/** 204 once the import's job has started; the job lands the content (see docs/git.md, "Git Sync"). */
async function importRepository(ctx: AppContext, { body }: { body: schemas.ImportGitRepositoryBody }) {
  await requestGitSync(jobDeps(ctx), { space: spaceOf(ctx).space, caller: callerOf(ctx), direction: 'import', request: body });
  ctx.status = 204;
}

async function exportRepository(ctx: AppContext, { body }: { body: schemas.ExportToGitRepositoryBody }) {
  await requestGitSync(jobDeps(ctx), { space: spaceOf(ctx).space, caller: callerOf(ctx), direction: 'export', request: body });
  ctx.status = 204;
}

async function info(ctx: AppContext) {
  ctx.body = presentGitSync(await readGitSync(ctx, spaceOf(ctx).space));
}

/** Quire never had GitBook's legacy Git installation: it is always already removed (205). */
async function deleteLegacyInstallation(ctx: AppContext) {
  ctx.status = 205;
}
