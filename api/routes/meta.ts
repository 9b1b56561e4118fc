import type { AppContext } from '../context.js';
import { presentUser } from '../presenters/user.js';
import { callerOf } from '../context.js';
import { anyone, signedIn } from '../policies/index.js';
import { RouteTable } from './table.js';
import { apiVersion, buildDate } from '../version.js';

export const metaRoutes = new RouteTable();

metaRoutes.get('/', 'getApiInformation', anyone, async (ctx: AppContext) => {
  // `jobs` is Quire's: whether the job service (Temporal) answers. Reads never need it.
  ctx.body = { version: apiVersion, build: buildDate, jobs: { status: (await ctx.jobs.isUp()) ? 'up' : 'down' } };
});

metaRoutes.get('/user', 'getAuthenticatedUser', signedIn, async (ctx: AppContext) => {
  ctx.body = presentUser(callerOf(ctx), ctx.urls);
});
