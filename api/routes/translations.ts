import { createTranslation, removeTranslation, runTranslation, setInstructionsOf } from '../../domain/translations/index.js';
import { getTranslation, listTranslations, type TranslationRecord } from '../../storage/translations.js';
import { callerOf, jobDeps, organizationOf, type AppContext, pathParam } from '../context.js';
import { translationActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { presentTranslation } from '../presenters/translation.js';
import * as schemas from '../schemas/translations.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const translationRoutes = new RouteTable();
const routes = translationRoutes;
const { view, edit, admin } = translationActions;
const translation = '/orgs/:organizationId/translations/:translationId';

routes.get('/orgs/:organizationId/translations', 'listTranslations', inOrganization(view), handle({ query: schemas.listTranslations }, list));
routes.post('/orgs/:organizationId/translations', 'createTranslation', inOrganization(edit), handle({ body: schemas.createTranslation }, create));
routes.get(translation, 'getTranslation', inOrganization(view), handle({}, get));
routes.put(translation, 'updateTranslation', inOrganization(edit), handle({ body: schemas.updateTranslation }, update));
routes.delete(translation, 'deleteTranslation', inOrganization(admin), handle({}, remove));
routes.post(`${translation}/run`, 'runTranslation', inOrganization(edit), handle({}, run));

const translationOf = (ctx: AppContext): Promise<TranslationRecord> => getTranslation(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'translationId'));

async function list(ctx: AppContext, { query }: { query: schemas.ListTranslationsQuery }) {
  const { organization, role } = organizationOf(ctx);
  ctx.body = presentList(await listTranslations(ctx.db, organization.id, query), (item) => presentTranslation(item, role, ctx.urls));
}

/** 201 with the first run started (`pending`): translating runs as a job (see docs/decisions/jobs.md). */
async function create(ctx: AppContext, { body }: { body: schemas.CreateTranslationBody }) {
  const { organization, role } = organizationOf(ctx);
  const created = await createTranslation(jobDeps(ctx), organization.id, body, callerOf(ctx));
  ctx.status = 201;
  ctx.body = presentTranslation(created, role, ctx.urls);
}

async function get(ctx: AppContext) {
  ctx.body = presentTranslation(await translationOf(ctx), organizationOf(ctx).role, ctx.urls);
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateTranslationBody }) {
  const current = await translationOf(ctx);
  await setInstructionsOf(ctx.db, current.id, body.instructions);
  ctx.body = presentTranslation(await translationOf(ctx), organizationOf(ctx).role, ctx.urls);
}

/** The target space stays: it is a space like any other now. A run under way finds the translation gone and stops. */
async function remove(ctx: AppContext) {
  await removeTranslation(ctx.db, (await translationOf(ctx)).id);
  ctx.status = 204;
}

/** 204 at once: the next run starts, or the one under way is joined. */
async function run(ctx: AppContext) {
  await runTranslation(jobDeps(ctx), await translationOf(ctx), callerOf(ctx));
  ctx.status = 204;
}
