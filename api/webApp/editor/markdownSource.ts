/**
 * The markdown editor's source mode: the page's markdown in CodeMirror (line numbers, markdown
 * highlighting, undo, soft wrapping) in place of the form's text area, which it keeps filled, so
 * the form posts as it does without script; beside it, the page as it reads, drawn again by the
 * server a moment after typing stops. Bundled on the server (editorBundle.ts).
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { syntaxHighlighting } from '@codemirror/language';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';

const area = document.querySelector<HTMLTextAreaElement>('form.editor textarea[name=markdown]');
// The page's nonce, which its policy allows for the styles CodeMirror adds.
const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
const form = area?.form;
const previewBody = document.querySelector<HTMLElement>('.source-preview .preview-body');
let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewed = 0;

/** Asks for the preview of what is written, 400 ms after the last change; an answer older than the latest asked is dropped. */
function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => {
    if (!form || !previewBody || !area) return;
    const asked = ++previewed;
    const body = new URLSearchParams({ csrf: new FormData(form).get('csrf')?.toString() ?? '', markdown: area.value });
    void fetch(form.dataset.preview!, { method: 'POST', body, headers: { accept: 'application/json' } })
      .then((response) => response.json() as Promise<{ html?: string }>)
      .then((answer) => {
        // The server's own drawing of the page (the app's document renderer, user text escaped), as the reading page shows it.
        if (asked === previewed && answer.html !== undefined) previewBody.innerHTML = answer.html;
      })
      .catch(() => undefined);
  }, 400);
}

if (area) {
  const view = new EditorView({
    doc: area.value,
    extensions: [
      lineNumbers(),
      history(),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      markdown(),
      // Classes (tok-heading, tok-link…) the app's stylesheet colours for light and dark alike.
      syntaxHighlighting(classHighlighter),
      EditorView.lineWrapping,
      EditorView.cspNonce.of(nonce),
      EditorView.contentAttributes.of({ 'aria-label': 'Markdown', spellcheck: 'true' }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        area.value = update.state.doc.toString();
        schedulePreview();
      }),
    ],
  });
  area.hidden = true;
  area.after(view.dom);
  view.dom.classList.add('markdown-source');
}
