import type Koa from 'koa';

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Site not served yet</title></head>
<body><h1>404: this site is not served by this server yet</h1>
<p>Quire records where a published docs site lives (<code>urls.published</code>), but rendering sites is not built yet.
Read the site's content through the API (<code>GET /v1/orgs/{organizationId}/sites/{siteId}/published</code>).</p></body></html>
`;

/**
 * `GET /sites/{siteId}/…`, where a published site's `urls.published` points: until sites are
 * rendered, a plain HTML 404 page that says so (README, *Docs sites*), never a JSON error or a 500.
 */
export async function publishedSitePlaceholder(ctx: Koa.Context, next: Koa.Next) {
  if (!/^\/sites(\/|$)/.test(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
  ctx.status = 404;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page;
}
