import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { publishedRevisions, readPublishedPage, searchPublishedSite, type PublishedPageView, type PublishedVisitor } from '../../domain/publishing/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { jsonBody } from '../middleware/jsonBody.js';
import { llmsTxt, markdownTwin } from './pages/agentFiles.js';
import { apiVersion } from '../version.js';

// The SDK takes about 0.2 s to load: loaded by the first MCP request, not at every start.
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/mcp.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const mcpSdk = () => (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/** An MCP request is a JSON-RPC message or a small batch of them. */
const mcpBodyLimitBytes = 64 * 1024;

export interface SiteMcpRequest {
  /** The site as the visitor sees it (its root page's view). */
  root: PublishedPageView;
  /** The origin the site's absolute URLs are made with (this server's, or the site's own host). */
  origin: string;
  /** How to look up another URL path of the site as the same visitor. */
  lookupUrl: (path: string) => string;
  visitor: PublishedVisitor;
}

/**
 * `POST <site>/~mcp`: the site as an MCP server (Streamable HTTP, stateless: every request is
 * answered on its own), for agents. Its tools list the site's pages, search them and read one as
 * markdown, with the visitor's access: what the site's pages show them, nothing more.
 */
export async function serveSiteMcp(ctx: AppContext, request: SiteMcpRequest) {
  if (ctx.method !== 'POST') {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'This MCP endpoint is stateless: POST each message' }, id: null };
    return;
  }
  const [{ McpServer }, { StreamableHTTPServerTransport }] = await mcpSdk();
  await jsonBody({ limitBytes: mcpBodyLimitBytes })(ctx, async () => {
    const server = siteMcpServer(ctx, request, McpServer);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    ctx.respond = false; // the transport writes the answer
    ctx.res.on('close', () => void server.close());
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  });
}

function siteMcpServer(ctx: AppContext, { root, origin, lookupUrl, visitor }: SiteMcpRequest, Server: typeof McpServer): McpServer {
  const deps = contentDeps(ctx);
  const siteTitle = typeof root.customization.title === 'string' ? root.customization.title : root.place.site.title;
  const server = new Server({ name: `quire-site-${root.place.site.id}`, title: siteTitle, version: apiVersion });
  const text = (value: string, isError = false) => ({ content: [{ type: 'text' as const, text: value }], ...(isError ? { isError } : {}) });

  server.registerTool('list_pages', { title: 'List pages', description: `Every page of ${siteTitle}, with its markdown URL (llms.txt).`, annotations: { readOnlyHint: true } }, async () =>
    text(llmsTxt(root, await publishedRevisions(deps, root), origin)),
  );

  server.registerTool(
    'search',
    {
      title: 'Search the site',
      description: `Search ${siteTitle}: pages and sections matching every word, best first.`,
      inputSchema: { query: z.string().min(1).max(512) },
      annotations: { readOnlyHint: true },
    },
    async ({ query }) => {
      const found = await searchPublishedSite(deps, root.siteSpaces, query, 100);
      if (found.length === 0) return text(`Nothing found for "${query}".`);
      return text(
        found
          .slice(0, 20)
          .map((page) => {
            const path = `${page.siteSpace.path}${page.path}`;
            const sections = page.sections.slice(0, 3).map((section) => `  - ${section.title}${section.excerpt ? `: ${section.excerpt.replace(/\s+/g, ' ')}` : ''}`);
            return [`- ${page.title} (path: "${path}")`, ...sections].join('\n');
          })
          .join('\n'),
      );
    },
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description: `A page of ${siteTitle} as markdown, by its path below the site (as list_pages and search give it; "" for the first page).`,
      inputSchema: { path: z.string().max(2048) },
      annotations: { readOnlyHint: true },
    },
    async ({ path }) => {
      const segments = path
        .replace(/^\/+|\.md$/g, '')
        .split('/')
        .filter(Boolean)
        .map(encodeURIComponent)
        .join('/');
      let view = await readPublishedPage(deps, { url: lookupUrl(`${root.place.siteBasePath}${segments}`), publicBase: ctx.urls.base, visitor }).catch(() => undefined);
      // A moved page or a redirect on the site is followed once.
      if (view && 'redirect' in view && view.target === 'content') view = await readPublishedPage(deps, { url: view.redirect, publicBase: ctx.urls.base, visitor }).catch(() => undefined);
      if (!view || 'redirect' in view || !view.page) return text(`No page at "${path}" on this site.`, true);
      return text(markdownTwin(view.page));
    },
  );
  return server;
}
