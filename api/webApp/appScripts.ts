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

const named = (prefix: string, body: string) => ({ name: `${prefix}-${createHash('sha256').update(body).digest('base64url').slice(0, 12)}.js`, body });
export const appScripts = { livePreview: named('live-preview', livePreview) };
export const appScriptByName = new Map(Object.values(appScripts).map((script) => [script.name, script.body]));
