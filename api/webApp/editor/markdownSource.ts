/**
 * The markdown editor's source mode: the page's markdown in CodeMirror (line numbers, markdown
 * highlighting, undo, soft wrapping) in place of the form's text area, which it keeps filled, so
 * the form posts as it does without script. Bundled on the server (editorBundle.ts).
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { syntaxHighlighting } from '@codemirror/language';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';

const area = document.querySelector<HTMLTextAreaElement>('form.editor textarea[name=markdown]');
// The page's nonce, which its policy allows for the styles CodeMirror adds.
const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
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
        if (update.docChanged) area.value = update.state.doc.toString();
      }),
    ],
  });
  area.hidden = true;
  area.after(view.dom);
  view.dom.classList.add('markdown-source');
}
