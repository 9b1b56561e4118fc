import type Router from '@koa/router';
import type { ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import {
  changeRequestOf,
  type EditedBranch,
  movePageInTree,
  previewPageSource,
  readEditedRevision,
  readPageBlocks,
  liveEditedBranch,
  readPageSource,
  renamePageInTree,
  savePageBlocks,
  savePageSource,
  type TreeMove,
  updateEditedContent,
  uploadPageFile,
} from '../../domain/changeRequests/index.js';
import { collabTicket } from '../../domain/collaboration/index.js';
import { DomainError } from '../../domain/common/errors.js';
import { el } from '../../domain/documents/index.js';
import { MarkdownTooDeepError } from '../../engine/index.js';
import { collabPath } from './collabSocket.js';
import type { WrittenBlock } from '../../engine/index.js';
import { callerOf, contentDeps, pathParam, spaceOf, type AppContext, type AppServices, type AppState } from '../context.js';
import { badRequest } from '../errors.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { blockEditorContent, editedPagesContent, editedPagesPath, editPagePath, markdownEditorContent } from './editorPages.js';
import { editorBundle } from './editorBundle.js';
import { appScripts } from './appScripts.js';
import { checkedForm } from './forms.js';
import { signedIn } from './guards.js';
import { sendPage } from './layout.js';
import { pageBody } from './pages.js';
import { changeRequestPath, pagePath } from './paths.js';

const guarded = (role: Parameters<typeof inSpace>[0]) => [signedIn, inSpace(role).check] as never[];
/** A page saved from the block editor: its blocks as JSON in a form field, up to what a page of a million characters needs. */
const blocksFormLimit = 4 * 1024 * 1024;
/** An image for a page, base64 in a form field: the API's 1 MB for a file, as base64, and the other fields. */
const uploadFormLimit = 2_000_000;
const conflictProblem = 'The page changed meanwhile (a push, or someone else) on the lines you changed too: both versions are below, marked. Keep what you want, remove the markers, and save again.';

/** The editors' branch of a change request (`one`: its path, with the space and its number). */
export const changeRequestEdited = async (ctx: AppContext): Promise<EditedBranch> => {
  const { space } = spaceOf(ctx);
  return { space, changeRequest: await changeRequestOf(contentDeps(ctx), space, pathParam(ctx, 'number')) };
};

/** A live space's own content, edited directly: refused when the space is locked, or its merge rules ask for change requests. */
export const liveEdited = (ctx: AppContext): Promise<EditedBranch> => liveEditedBranch(contentDeps(ctx), spaceOf(ctx).space, callerOf(ctx));

/** Where a saved markdown page goes: the change request's changes, or the page as it reads now. */
const afterSave = ({ space, changeRequest }: EditedBranch, pageId: string) => (changeRequest ? `${changeRequestPath(space.id, changeRequest.number)}#changes-title` : pagePath(space.id, pageId));

/**
 * Writing pages, on a change request's branch or (a space in live edit mode) on the space's own:
 * its pages, a page in the block editor (saved as JSON by its script) or in markdown (a plain
 * form), a new page, a deletion. Each is the API's content command on that branch, under the
 * API's policy for editing the space. `one` is where they live; `editedOf` finds the branch.
 */
export function addEditorRoutes(router: Router<AppState, AppServices>, one: string, editedOf: (ctx: AppContext) => Promise<EditedBranch>): void {
  const posted = async (ctx: AppContext, limitBytes?: number) => {
    const form = await checkedForm(ctx, limitBytes);
    return { form, edited: await editedOf(ctx) };
  };
  router.get(`${one}/pages`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const edited = await editedOf(app);
    const revision = await readEditedRevision(contentDeps(app), edited);
    sendPage(app, { title: 'Pages', content: editedPagesContent(app, { edited, pages: revision.pages }), scripts: [appScripts.pageTreeDrag.name] });
  });
  router.post(`${one}/p/:pageId/move`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app);
    const pageId = pathParam(app, 'pageId');
    await movePageInTree(contentDeps(app), { edited, pageId, move: treeMoveOf(form), author: callerOf(app) });
    ctx.status = 303;
    ctx.redirect(`${editedPagesPath(edited)}#page-${pageId}`);
  });
  router.post(`${one}/p/:pageId/rename`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app);
    const pageId = pathParam(app, 'pageId');
    await renamePageInTree(contentDeps(app), { edited, pageId, title: form.get('title') ?? '', author: callerOf(app) });
    ctx.status = 303;
    ctx.redirect(`${editedPagesPath(edited)}#page-${pageId}`);
  });
  router.post(`${one}/pages`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app);
    const title = (form.get('title') ?? '').trim();
    if (!title || title.length > 256) throw badRequest('A page’s title has 1 to 256 characters');
    const update = await updateEditedContent(contentDeps(app), { edited, operations: [{ operation: 'insert_page', title, document: { markdown: '' } }], author: callerOf(app) });
    const created = update.outcomes.find((outcome) => outcome.kind === 'created')!;
    ctx.status = 303;
    ctx.redirect(editPagePath(edited, created.pageId));
  });

  router.get(`${one}/p/:pageId/edit`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const edited = await editedOf(app);
    const [opened, bundle] = await Promise.all([readPageBlocks(contentDeps(app), edited, pathParam(app, 'pageId')), editorBundle()]);
    const collab = await collabUrl(app, edited, opened.page.id);
    sendPage(app, {
      title: `Edit ${opened.title}`,
      content: blockEditorContent(app, { edited, pageId: opened.page.id, title: opened.title, base: opened.head, blocks: opened.blocks, collab, targets: opened.targets }),
      scripts: [bundle.name],
    });
  });
  // A new ticket for a shared editor whose connection dropped (a ticket opens connections for ten minutes).
  router.get(`${one}/p/:pageId/collab`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    ctx.body = { url: await collabUrl(app, await editedOf(app), pathParam(app, 'pageId')) };
  });
  router.post(`${one}/p/:pageId/blocks`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app, blocksFormLimit);
    const base = form.get('base') ?? '';
    if (!/^[0-9a-f]{40}$/.test(base)) throw badRequest('"base" is the commit the page was opened at');
    const saved = await savePageBlocks(contentDeps(app), {
      edited,
      pageId: pathParam(app, 'pageId'),
      base,
      title: form.get('title') ?? '',
      blocks: writtenBlocksOf(form.get('blocks')),
      author: callerOf(app),
    });
    ctx.status = saved.result === 'conflict' ? 409 : 200;
    if (saved.result === 'conflict') ctx.body = { result: 'conflict', head: saved.head, written: saved.written };
    else ctx.body = saved.merged ? { result: 'saved', head: saved.commit, merged: true, blocks: saved.blocks } : { result: 'saved', head: saved.commit, merged: false, keys: saved.keys };
  });

  router.post(`${one}/p/:pageId/files`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app, uploadFormLimit);
    const file = { name: form.get('name') ?? '', contentType: form.get('contentType') ?? '', base64: form.get('base64') ?? '' };
    // An image block's file is an image; a file block's, any file of a media type.
    const kind = form.get('kind') ?? 'image';
    if (kind !== 'image' && kind !== 'file') throw badRequest('"kind" is image or file');
    if (kind === 'image' && !/^image\//.test(file.contentType)) throw badRequest('"contentType" is an image’s type (image/png, image/jpeg…)');
    if (!/^[\w.+-]+\/[\w.+-]+$/.test(file.contentType)) throw badRequest('"contentType" is a media type (application/pdf, text/plain…)');
    const uploaded = await uploadPageFile(contentDeps(app), { edited, pageId: pathParam(app, 'pageId'), ...file, author: callerOf(app) });
    ctx.body = { head: uploaded.commit, src: uploaded.src };
  });

  router.get(`${one}/p/:pageId/markdown`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const edited = await editedOf(app);
    const [source, bundle] = await Promise.all([readPageSource(contentDeps(app), edited, pathParam(app, 'pageId')), editorBundle('markdown')]);
    const preview = await previewOf(app, edited, source.page.id, source.markdown);
    sendPage(app, {
      title: `Edit ${source.title}`,
      content: markdownEditorContent(app, { edited, pageId: source.page.id, title: source.title, markdown: source.markdown, base: source.head, preview }),
      scripts: [bundle.name],
    });
  });
  router.post(`${one}/p/:pageId/markdown`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app, blocksFormLimit);
    const pageId = pathParam(app, 'pageId');
    const written = { title: form.get('title') ?? '', markdown: form.get('markdown') ?? '' };
    const base = form.get('base') ?? '';
    if (!/^[0-9a-f]{40}$/.test(base)) throw badRequest('"base" is the commit the page was opened at');
    try {
      const saved = await savePageSource(contentDeps(app), { edited, pageId, base, ...written, author: callerOf(app) });
      if (saved.result === 'conflict') {
        const preview = await previewOf(app, edited, pageId, saved.markdown);
        const content = markdownEditorContent(app, { edited, pageId, ...written, markdown: saved.markdown, base: saved.head, problem: conflictProblem, preview });
        return sendPage(app, { title: `Edit ${written.title}`, content, scripts: [(await editorBundle('markdown')).name] }, 409);
      }
      ctx.status = 303;
      ctx.redirect(afterSave(edited, pageId));
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid') throw error;
      const content = markdownEditorContent(app, { edited, pageId, ...written, base, problem: error.message, preview: [] });
      sendPage(app, { title: `Edit ${written.title}`, content, scripts: [(await editorBundle('markdown')).name] }, 400);
    }
  });
  // The source editor's preview: the markdown being written, drawn as the page would read (nothing written).
  router.post(`${one}/p/:pageId/preview`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, edited } = await posted(app, blocksFormLimit);
    ctx.body = { html: bodyHtml(await previewOf(app, edited, pathParam(app, 'pageId'), form.get('markdown') ?? '')) };
  });
  router.post(`${one}/p/:pageId/delete`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { edited } = await posted(app);
    await updateEditedContent(contentDeps(app), { edited, operations: [{ operation: 'delete_page', page: pathParam(app, 'pageId') }], author: callerOf(app) });
    ctx.status = 303;
    ctx.redirect(editedPagesPath(edited));
  });
}

/** The page as `markdown` would make it read; a markdown too deep to read says so instead. */
async function previewOf(ctx: AppContext, edited: EditedBranch, pageId: string, markdown: string): Promise<ElementContent[]> {
  try {
    return await pageBody(ctx, { space: edited.space, ...(await previewPageSource(contentDeps(ctx), edited, pageId, markdown)) });
  } catch (error) {
    if (!(error instanceof DomainError) && !(error instanceof MarkdownTooDeepError)) throw error;
    return [el('p', { className: ['problem'] }, `No preview: ${(error as Error).message}`)];
  }
}

const bodyHtml = (content: ElementContent[]) => toHtml({ type: 'root', children: content });

/** Where the page's shared editor connects, with a ticket for this person and page. */
async function collabUrl(ctx: AppContext, edited: EditedBranch, pageId: string): Promise<string> {
  const ticket = await collabTicket(contentDeps(ctx), { userId: callerOf(ctx).id, spaceId: edited.space.id, changeRequestId: edited.changeRequest?.id ?? null, pageId });
  return `${collabPath}?ticket=${encodeURIComponent(ticket)}`;
}

/** A move from the Move buttons (`direction`) or a drag (`into`, `at`; `into` empty for the top level). */
function treeMoveOf(form: URLSearchParams): TreeMove {
  const direction = form.get('direction');
  if (direction === 'up' || direction === 'down' || direction === 'in' || direction === 'out') return direction;
  const at = Number(form.get('at'));
  if (form.has('into') && Number.isInteger(at) && at >= 0) return { into: form.get('into') || null, at };
  throw badRequest('"direction" is up, down, in or out; or give "into" (a page, or empty for the top) and "at" (a position)');
}

/** The editor's blocks, checked for their shape: each `{keep}`, `{node}` (a Document block) or `{source}`. */
function writtenBlocksOf(text: string | null): WrittenBlock[] {
  let blocks: unknown;
  try {
    blocks = JSON.parse(text ?? '');
  } catch {
    throw badRequest('"blocks" is the page’s blocks as JSON');
  }
  if (!Array.isArray(blocks)) throw badRequest('"blocks" is a list');
  if (blocks.length > 100_000) throw badRequest('A page has at most 100,000 blocks');
  blocks.forEach((block: unknown, index) => {
    const item = block as Record<string, unknown> | null;
    const fine =
      item !== null &&
      typeof item === 'object' &&
      (typeof item.keep === 'string' ||
        typeof item.source === 'string' ||
        (typeof item.node === 'object' && item.node !== null && (item.node as Record<string, unknown>).object === 'block' && typeof (item.node as Record<string, unknown>).type === 'string'));
    if (!fine) throw badRequest(`"blocks[${index}]" is {"keep": key}, {"source": markdown} or {"node": a Document block}`);
  });
  return blocks as WrittenBlock[];
}
