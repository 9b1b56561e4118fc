import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import Router from '@koa/router';
import { advertisementStart, startGitExchange, type GitService } from '../../domain/git/index.js';
import { actorOf, callerOf, contentDeps, spaceOf, type AppContext, type AppServices, type AppState, pathParam } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace, signedInOverGit } from '../policies/index.js';
import { atLeast } from '../policies/roles.js';

/**
 * Every space is a git remote: `<QUIRE_PUBLIC_URL>/git/<spaceId>.git`, git's smart HTTP protocol
 * (gitprotocol-http), the pack work done by the system git. Reading (clone, fetch, ls-remote)
 * needs the space's read role, pushing its edit role; what a push may land is decided in its
 * hooks (domain/git/pushes.ts).
 */
export const gitRouter = new Router<AppState, AppServices>({ prefix: '/git' });

gitRouter.get(
  '/:repository/info/refs',
  signedInOverGit.check,
  spacePolicy((ctx) => serviceOf(String(ctx.query.service ?? ''))),
  advertise,
);
gitRouter.post(
  '/:repository/git-upload-pack',
  signedInOverGit.check,
  spacePolicy(() => 'git-upload-pack'),
  exchange('git-upload-pack'),
);
gitRouter.post(
  '/:repository/git-receive-pack',
  signedInOverGit.check,
  spacePolicy(() => 'git-receive-pack'),
  exchange('git-receive-pack'),
);

function serviceOf(name: string): GitService {
  if (name === 'git-upload-pack' || name === 'git-receive-pack') return name;
  throw badRequest(`Quire speaks git's smart HTTP protocol: info/refs needs ?service=git-upload-pack or ?service=git-receive-pack${name ? `, not ${name}` : ''}`);
}

/** Read role to fetch, edit role to push: `inSpace` for the space the path names (`<id>.git` or `<id>`). */
function spacePolicy(service: (ctx: AppContext) => GitService) {
  const fetchers = inSpace(spaceActions.view);
  const pushers = inSpace(spaceActions.edit);
  return (ctx: AppContext, next: () => Promise<unknown>) => {
    ctx.params.spaceId = pathParam(ctx, 'repository').replace(/\.git$/, '');
    return (service(ctx) === 'git-receive-pack' ? pushers : fetchers).check(ctx, next);
  };
}

/** Git's answers are never cached (as `git http-backend` says). */
function noCache(ctx: AppContext) {
  ctx.set('Cache-Control', 'no-cache, max-age=0, must-revalidate');
  ctx.set('Pragma', 'no-cache');
  ctx.set('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
}

async function advertise(ctx: AppContext) {
  const service = serviceOf(String(ctx.query.service));
  const gitProtocol = ctx.get('git-protocol') || undefined;
  const child = await startGitExchange(contentDeps(ctx), { space: spaceOf(ctx).space, service, advertise: true, gitProtocol });
  child.stdin.end();
  const body = new PassThrough();
  body.write(advertisementStart(service));
  answer(ctx, child, body, `application/x-${service}-advertisement`);
}

function exchange(service: GitService) {
  return async (ctx: AppContext) => {
    if (ctx.get('content-type') !== `application/x-${service}-request`) throw new HttpError(415, `A ${service} request has the content type application/x-${service}-request`);
    const encoding = ctx.get('content-encoding');
    if (encoding && encoding !== 'gzip' && encoding !== 'x-gzip') throw new HttpError(415, `Request bodies may be gzip-encoded, not ${encoding}`);
    const { space, role } = spaceOf(ctx);
    const gitProtocol = ctx.get('git-protocol') || undefined;
    const urls = ctx.urls;
    const pusher = {
      user: callerOf(ctx),
      actor: actorOf(ctx),
      mayMerge: atLeast(role, spaceActions.merge),
      changeRequestUrl: (changeRequest: { spaceId: string; number: number }) => urls.changeRequestApp(changeRequest.spaceId, changeRequest.number),
    };
    const child = await startGitExchange(contentDeps(ctx), { space, service, advertise: false, gitProtocol }, pusher);
    const input: Readable = encoding ? ctx.req.pipe(createGunzip()) : ctx.req;
    input.on('error', () => child.kill());
    input.pipe(child.stdin).on('error', () => undefined); // git may stop reading early (a refused push): not an error of ours
    answer(ctx, child, new PassThrough(), `application/x-${service}-result`);
  };
}

/** Streams git's stdout after what `body` already holds; a client that goes away stops git. */
function answer(ctx: AppContext, child: Awaited<ReturnType<typeof startGitExchange>>, body: PassThrough, type: string) {
  noCache(ctx);
  ctx.type = type;
  ctx.status = 200;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr.length < 4096 && (stderr += chunk.toString('utf8'))));
  child.stdout.pipe(body);
  child.on('error', (error) => body.destroy(error));
  child.on('close', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM')
      console.error(JSON.stringify({ level: 'warn', message: `git ${child.spawnargs.slice(-3).join(' ')} exited with ${code ?? signal}`, stderr: stderr.trim(), requestId: ctx.state.requestId }));
  });
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished && child.exitCode === null) child.kill('SIGTERM');
  });
  ctx.body = body;
}
