/**
 * The block editor, in the browser: ProseMirror over the page's blocks (see
 * domain/documents/editor), saved as a commit on the change request's branch by the Save button,
 * Ctrl+S, or a pause in typing. Bundled on the server (editorBundle.ts), loaded by the edit page only.
 */
import { baseKeymap, chainCommands, exitCode, toggleMark } from 'prosemirror-commands';
import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import { history, redo, undo } from 'prosemirror-history';
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { EditorState, TextSelection, type Command } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import type { Node as PMNode } from 'prosemirror-model';
import { documentOfBlocks, keysAfterSave, openedBlocks, sameBlocks, schema, withKeys, writtenBlocks, type EditableBlock, type OpenedBlocks } from '../../../domain/documents/editor/index.js';
import { blockSettings } from './blockSettings.js';
import { moveBlock } from './blockCommands.js';
import { dragHandle } from './dragHandle.js';
import { dataUrl, imageUpload, insertImages, type Uploads } from './imageUpload.js';
import { slashMenu } from './slashMenu.js';

const nodes = schema.nodes;
const marks = schema.marks;

const rules = inputRules({
  rules: [
    textblockTypeInputRule(/^(#{1,3})\s$/, nodes.heading!, (match) => ({ level: match[1]!.length })),
    wrappingInputRule(/^\s*\[([ xX])\]\s$/, nodes.task_list!),
    wrappingInputRule(/^\s*([-+*])\s$/, nodes.bullet_list!),
    wrappingInputRule(
      /^(\d+)\.\s$/,
      nodes.ordered_list!,
      (match) => ({ start: Number(match[1]) === 1 ? null : Number(match[1]) }),
      (match, node) => node.childCount + (node.attrs.start ?? 1) === Number(match[1]),
    ),
    wrappingInputRule(/^\s*>\s$/, nodes.blockquote!),
    textblockTypeInputRule(/^```([\w+-]*)\s$/, nodes.code_block!, (match) => ({ syntax: match[1] || null })),
    new InputRule(/^(?:---|\*\*\*|___)$/, (state, _match, start, end) => {
      const $start = state.doc.resolve(start);
      if (!$start.node(-1).canReplaceWith($start.index(-1), $start.indexAfter(-1), nodes.divider!)) return null;
      return state.tr.replaceRangeWith($start.before(), end, nodes.divider!.create());
    }),
  ],
});

const hardBreak: Command = chainCommands(exitCode, (state, dispatch) => {
  dispatch?.(state.tr.replaceSelectionWith(nodes.hard_break!.create()).scrollIntoView());
  return true;
});

const keys = keymap({
  'Mod-z': undo,
  'Shift-Mod-z': redo,
  'Mod-y': redo,
  'Mod-b': toggleMark(marks.bold!),
  'Mod-i': toggleMark(marks.italic!),
  'Mod-e': toggleMark(marks.code!),
  'Shift-Mod-x': toggleMark(marks.strikethrough!),
  'Shift-Enter': hardBreak,
  Enter: splitListItem(nodes.list_item!),
  Tab: sinkListItem(nodes.list_item!),
  'Shift-Tab': liftListItem(nodes.list_item!),
  'Alt-ArrowUp': moveBlock(-1),
  'Alt-ArrowDown': moveBlock(1),
});

function start() {
  const root = document.getElementById('block-editor');
  const data = document.getElementById('editor-blocks');
  if (!root || !data) return;
  const opened = JSON.parse(data.textContent ?? '{}') as { base: string; blocks: EditableBlock[] };
  const mount = root.querySelector<HTMLElement>('.editor-surface')!;
  const titleInput = document.getElementById('page-title') as HTMLInputElement;
  const status = root.querySelector<HTMLElement>('.save-status')!;
  const csrf = (root.querySelector('input[name=csrf]') as HTMLInputElement).value;

  let base = opened.base;
  let savedTitle = titleInput.value;
  let known: OpenedBlocks;
  let dirty = false;
  let saving: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const uploads: Uploads = {
    async upload(file) {
      const base64 = (await dataUrl(file)).replace(/^data:[^,]*,/, '');
      const body = new URLSearchParams({ csrf, name: file.name || 'image.png', contentType: file.type, base64 });
      const response = await fetch(root!.dataset.files!, { method: 'POST', body, headers: { accept: 'application/json' } });
      const answer = (await response.json()) as { src?: string; error?: { message: string } };
      if (!response.ok || !answer.src) throw new Error(answer.error?.message ?? `refused (${response.status})`);
      return answer.src;
    },
  };
  const doc = documentOfBlocks(opened.blocks);
  known = openedBlocks(doc);
  const view: EditorView = new EditorView(mount, {
    state: EditorState.create({
      doc,
      plugins: [
        slashMenu(),
        rules,
        keys,
        keymap({ 'Mod-s': () => (void save(), true), 'Mod-k': () => (addLink(), true) }),
        keymap(baseKeymap),
        history(),
        dropCursor(),
        gapCursor(),
        imageUpload(uploads, (message) => show(message)),
        blockSettings(root.querySelector('.block-settings')!),
        dragHandle(),
      ],
    }),
    attributes: { 'aria-label': 'Page content', 'aria-multiline': 'true', role: 'textbox', spellcheck: 'true', class: 'editor-content' },
    dispatchTransaction(tr) {
      view.updateState(view.state.apply(tr));
      if (tr.docChanged && tr.getMeta('fromSave') !== true) edited();
    },
  });

  const show = (text: string, state: 'saved' | 'pending' | 'problem' = 'pending') => {
    if (status.textContent === text && status.dataset.state === state) return; // every keystroke says "Unsaved changes": no relayout for it
    status.textContent = text;
    status.dataset.state = state;
  };
  function edited() {
    dirty = true;
    show('Unsaved changes');
    clearTimeout(timer);
    timer = setTimeout(() => void save(), 1500);
  }
  titleInput.addEventListener('input', edited);

  function save(): Promise<void> {
    clearTimeout(timer);
    if (saving) return saving.then(() => (dirty ? save() : undefined));
    if (!dirty && titleInput.value === savedTitle) return Promise.resolve();
    saving = send().finally(() => (saving = undefined));
    return saving;
  }

  async function send() {
    dirty = false;
    const sent = view.state.doc;
    const title = titleInput.value;
    show('Saving…');
    const body = new URLSearchParams({ csrf, base, title, blocks: JSON.stringify(writtenBlocks(sent, known)) });
    let answer: { result: string; head?: string; merged?: boolean; keys?: Array<string | null>; blocks?: EditableBlock[]; written?: string; error?: { message: string } };
    try {
      const response = await fetch(root!.dataset.save!, { method: 'POST', body, headers: { accept: 'application/json' } });
      answer = (await response.json()) as typeof answer;
      if (!response.ok && answer.result !== 'conflict') throw new Error(answer.error?.message ?? `The save was refused (${response.status})`);
    } catch (error) {
      dirty = true;
      return show(`Not saved: ${(error as Error).message}`, 'problem');
    }
    if (answer.result === 'conflict') return conflict(answer.written ?? '', title);
    savedTitle = title;
    if (!answer.merged) {
      rekey(withKeys(sent, answer.keys ?? []));
    } else if (view.state.doc === sent) {
      // Someone else's changes came in with the save (a push, another writer): the editor shows them.
      replaceDocument(documentOfBlocks(answer.blocks ?? []));
    } else {
      // Merged, and typed on meanwhile: the next save merges from the same base again.
      dirty = true;
      show('Unsaved changes');
      timer = setTimeout(() => void save(), 200);
      return;
    }
    base = answer.head!;
    show(dirty ? 'Unsaved changes' : 'Saved', dirty ? 'pending' : 'saved');
  }

  /** Gives the document's nodes the keys of the saved nodes with their content (`saved`, keyed). */
  function rekey(saved: PMNode) {
    const keysNow = keysAfterSave(view.state.doc, saved);
    const tr = view.state.tr.setMeta('fromSave', true).setMeta('addToHistory', false);
    view.state.doc.forEach((node, offset, index) => {
      if (node.attrs.key !== keysNow[index]) tr.setNodeAttribute(offset, 'key', keysNow[index]);
    });
    if (tr.docChanged) view.dispatch(tr);
    known = openedBlocks(view.state.doc);
  }

  function replaceDocument(next: PMNode) {
    if (!sameBlocks(next, view.state.doc)) {
      const { from } = view.state.selection;
      const tr = view.state.tr.setMeta('fromSave', true).setMeta('addToHistory', false).replaceWith(0, view.state.doc.content.size, next.content);
      tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(from, tr.doc.content.size))));
      view.dispatch(tr);
    }
    rekey(next);
  }

  /** The page changed on the same blocks meanwhile: both versions go to the markdown editor, marked, to choose from. */
  function conflict(written: string, title: string) {
    show('The page changed meanwhile where you wrote too. Opening both versions in the markdown editor…', 'problem');
    const form = document.createElement('form');
    form.method = 'post';
    form.action = root!.dataset.markdown!;
    for (const [name, value] of Object.entries({ csrf, base, title, markdown: written })) {
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = name;
      field.value = value;
      form.append(field);
    }
    document.body.append(form);
    form.submit();
  }

  root.querySelector('button.save')?.addEventListener('click', () => void save());
  root.querySelector('button.undo')?.addEventListener('click', () => (undo(view.state, view.dispatch), view.focus()));
  root.querySelector('button.redo')?.addEventListener('click', () => (redo(view.state, view.dispatch), view.focus()));
  for (const [name, mark] of Object.entries({ bold: marks.bold!, italic: marks.italic!, code: marks.code!, strikethrough: marks.strikethrough! })) {
    root.querySelector(`button.mark-${name}`)?.addEventListener('click', () => (toggleMark(mark)(view.state, view.dispatch), view.focus()));
  }
  /** Links the selected text, then puts the focus in the link's target (in the block settings). */
  function addLink() {
    const { from, to, empty } = view.state.selection;
    if (empty) return show('Select the text to link first.', 'problem');
    view.dispatch(view.state.tr.addMark(from, to, marks.link!.create({ ref: { kind: 'url', url: '' } })).setSelection(TextSelection.create(view.state.doc, to)));
    (root!.querySelector('.block-settings input') as HTMLInputElement | null)?.focus();
  }
  root.querySelector('button.mark-link')?.addEventListener('click', addLink);
  const chooser = root.querySelector<HTMLInputElement>('input.image-file')!;
  root.querySelector('button.insert-image')?.addEventListener('click', () => chooser.click());
  chooser.addEventListener('change', () => {
    const files = [...(chooser.files ?? [])];
    chooser.value = '';
    void insertImages(view, files, uploads, (message) => show(message)).then(() => view.focus());
  });
  window.addEventListener('beforeunload', (event) => {
    if (dirty || saving) event.preventDefault();
  });
  root.dataset.ready = 'true';
  performance.mark('quire-editor-ready');
  show('Saved', 'saved');
  Object.assign(window, { quireEditor: { view, save } });
  view.focus();
}

start();
