import { createHash } from 'node:crypto';

/**
 * The app's scripts: small, each enhancing pages that work without it. Served by their hash like
 * the stylesheet, and run only with the nonce of the page that names them.
 *
 * The live preview of a site's customization: while its form changes, the preview frame shows the
 * unsaved settings (the app mints a preview URL for them); the form's own Preview button does the
 * same without script, by reloading the page.
 */
const livePreview = `
const form = document.querySelector('form[data-preview]');
const frame = document.querySelector('iframe.preview');
if (form && frame) {
  let timer;
  form.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const body = new URLSearchParams(new FormData(form));
      const response = await fetch(form.dataset.preview, { method: 'POST', body, headers: { accept: 'application/json' } });
      if (response.ok) frame.src = (await response.json()).url;
    }, 300);
  });
}
`;

/**
 * Comments without a reload: a comment or reply form of a change request is posted by fetch, and
 * the conversations are replaced by those of the page the post leads back to (the same HTML the
 * server draws); focus goes to the new comment. A refusal shows the server's page as usual.
 */
const liveComments = `
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches('form.markdown-form') || event.defaultPrevented) return;
  event.preventDefault();
  const button = form.querySelector('button[type=submit]');
  if (button) button.disabled = true;
  const posts = () => [...document.querySelectorAll('article.comment[id], li.reply[id]')];
  const before = new Set(posts().map((post) => post.id));
  try {
    const response = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)) });
    if (!response.ok || !response.redirected) return form.submit();
    const next = new DOMParser().parseFromString(await response.text(), 'text/html');
    for (const id of ['comments', 'changes-title']) {
      const now = id === 'comments' ? document.getElementById(id) : document.getElementById(id)?.parentElement;
      const then = id === 'comments' ? next.getElementById(id) : next.getElementById(id)?.parentElement;
      if (now && then) now.replaceWith(document.importNode(then, true));
    }
    // A fetch's URL keeps no fragment: the new post is the one that wasn't there before.
    const shown = posts().find((post) => !before.has(post.id));
    if (shown) {
      shown.setAttribute('tabindex', '-1');
      shown.focus();
      history.replaceState(null, '', '#' + shown.id);
    }
  } catch {
    form.submit();
  } finally {
    if (button) button.disabled = false;
  }
});
`;

/**
 * A change request's pages moved by dragging: a page dropped on another goes before it, among
 * its siblings (the move route with \`into\` and \`at\`), and the list is drawn again. The Move
 * buttons of each page do the same from the keyboard, without script.
 */
const pageTreeDrag = `
const tree = document.querySelector('ul[data-moves]');
if (tree) {
  let dragged;
  tree.addEventListener('dragstart', (event) => {
    dragged = event.target.closest('li[data-page]');
    if (dragged) event.dataTransfer.setData('text/plain', dragged.dataset.page);
  });
  tree.addEventListener('dragover', (event) => {
    if (dragged && event.target.closest('li[data-page]')) event.preventDefault();
  });
  tree.addEventListener('drop', async (event) => {
    const target = event.target.closest('li[data-page]');
    if (!dragged || !target || target === dragged || dragged.contains(target)) return;
    event.preventDefault();
    const sameParent = target.dataset.parent === dragged.dataset.parent;
    const at = Number(target.dataset.index) - (sameParent && Number(dragged.dataset.index) < Number(target.dataset.index) ? 1 : 0);
    const body = new URLSearchParams({ csrf: tree.dataset.csrf, into: target.dataset.parent, at: String(at) });
    const response = await fetch(tree.dataset.moves.replace('PAGE', dragged.dataset.page), { method: 'POST', body });
    location.reload();
  });
}
`;

const named = (prefix: string, body: string) => ({ name: `${prefix}-${createHash('sha256').update(body).digest('base64url').slice(0, 12)}.js`, body });
export const appScripts = { livePreview: named('live-preview', livePreview), liveComments: named('live-comments', liveComments), pageTreeDrag: named('page-tree-drag', pageTreeDrag) };
export const appScriptByName = new Map(Object.values(appScripts).map((script) => [script.name, script.body]));
