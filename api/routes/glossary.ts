import { readGlossary, readGlossaryEntry, updateGlossary, type GlossaryOperation } from '../../domain/translations/index.js';
import { organizationOf, type AppContext } from '../context.js';
import { translationActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { presentGlossaryEntry } from '../presenters/glossary.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/glossary.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// The organization's translation glossary: terms its translations render one way (docs/jobs.md,
// "Translations"); read by its members, changed by who makes translations.
export const glossaryRoutes = new RouteTable();
const routes = glossaryRoutes;
const glossary = '/orgs/:organizationId/translations-glossary';

routes.get(glossary, 'listGlossaryEntries', inOrganization(translationActions.view), handle({ query: schemas.listGlossary }, list));
routes.put(glossary, 'updateGlossaryEntries', inOrganization(translationActions.edit), handle({ body: schemas.updateGlossary }, update));
routes.get(`${glossary}/:glossaryEntryId`, 'getGlossaryEntry', inOrganization(translationActions.view), handle({}, get));

async function list(ctx: AppContext, { query }: { query: schemas.ListGlossaryQuery }) {
  const { organization } = organizationOf(ctx);
  const page = await readGlossary(ctx.db, organization.id, { page: query.page, limit: query.limit ?? 100 }, query.orderBy);
  ctx.body = presentList(page, (entry) => presentGlossaryEntry(entry, ctx.urls));
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateGlossaryBody }) {
  await updateGlossary(ctx.db, organizationOf(ctx).organization.id, body.operations as GlossaryOperation[]);
  ctx.status = 204;
}

async function get(ctx: AppContext, { params }: { params: { glossaryEntryId: string } }) {
  ctx.body = presentGlossaryEntry(await readGlossaryEntry(ctx.db, organizationOf(ctx).organization.id, params.glossaryEntryId), ctx.urls);
}
