/**
 * The block editor, in the browser: ProseMirror over the page's blocks (see
 * domain/documents/editor), shared with the other writers of the page (sharedSession) or, when
 * the shared editor can't be reached, saved by this browser alone (soloSession); either way each
 * save is a commit on the page's branch (a change request's, or a live space's own), after the Save button, Ctrl+S, or a pause in
 * typing. Bundled on the server (editorBundle.ts), loaded by the edit page only.
 */
import { baseKeymap, chainCommands, exitCode, toggleMark } from 'prosemirror-commands';
import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { EditorState, type Command } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { schema, type EditableBlock } from '../../../domain/documents/editor/index.js';
import { blockSettings } from './blockSettings.js';
import { blockChoices, moveBlock, type ChoiceContext } from './blockCommands.js';
import { dragHandle } from './dragHandle.js';
import { editorPage, type EditorPage } from './editorPage.js';
import { dataUrl, imageUpload, insertFile, insertImages, type Uploads } from './imageUpload.js';
import type { Session } from './session.js';
import { sharedSession } from './sharedSession.js';
import { soloSession } from './soloSession.js';
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

const formatting = (session: Session) =>
  keymap({
    'Mod-z': session.undo,
    'Shift-Mod-z': session.redo,
    'Mod-y': session.redo,
    'Mod-b': toggleMark(marks.bold!),
    'Mod-i': toggleMark(marks.italic!),
    'Mod-e': toggleMark(marks.code!),
    'Shift-Mod-x': toggleMark(marks.strikethrough!),
    'Shift-Enter': hardBreak,
    Enter: splitListItem(nodes.list_item!),
    Tab: sinkListItem(nodes.list_item!),
    'Shift-Tab': liftListItem(nodes.list_item!),
    'Alt-ArrowUp': ownStep(session, moveBlock(-1)),
    'Alt-ArrowDown': ownStep(session, moveBlock(1)),
  });

/** A command undone on its own, not with the typing before it. */
const ownStep =
  (session: Session, command: Command): Command =>
  (state, dispatch, view) => {
    if (!command(state)) return false;
    if (view) session.boundary(view);
    return command(view ? view.state : state, dispatch, view);
  };

async function start() {
  const root = document.getElementById('block-editor');
  const data = document.getElementById('editor-blocks');
  if (!root || !data) return;
  const page = editorPage(root);
  const opened = JSON.parse(data.textContent ?? '{}') as { base: string; blocks: EditableBlock[] };
  let session: Session;
  try {
    session = await sharedSession(page, { url: root.dataset.collab!, ticketUrl: root.dataset.collabTicket!, userName: root.dataset.userName ?? 'Someone' });
  } catch {
    // No shared editor (a proxy without WebSockets): this browser saves the page itself.
    session = soloSession(page, opened);
  }
  const uploads = uploadsOf(page);
  const view = editorView(page, session, uploads);
  session.attach(view);
  wireToolbar(page, session, view, uploads);
  window.addEventListener('beforeunload', (event) => {
    if (session.unsaved()) event.preventDefault();
  });
  root.dataset.ready = 'true';
  root.dataset.mode = session.doc ? 'solo' : 'shared';
  performance.mark('quire-editor-ready');
  page.show('Saved', 'saved');
  Object.assign(window, { quireEditor: { view, save: () => session.save() } });
  view.focus();
}

function uploadsOf(page: EditorPage): Uploads {
  return {
    async upload(file, kind) {
      const base64 = (await dataUrl(file)).replace(/^data:[^,]*,/, '');
      const body = new URLSearchParams({ csrf: page.csrf, kind, name: file.name || 'image.png', contentType: file.type || 'application/octet-stream', base64 });
      const response = await fetch(page.root.dataset.files!, { method: 'POST', body, headers: { accept: 'application/json' } });
      const answer = (await response.json()) as { src?: string; error?: { message: string } };
      if (!response.ok || !answer.src) throw new Error(answer.error?.message ?? `refused (${response.status})`);
      return answer.src;
    },
  };
}

function editorView(page: EditorPage, session: Session, uploads: Uploads): EditorView {
  const view: EditorView = new EditorView(page.root.querySelector<HTMLElement>('.editor-surface')!, {
    state: EditorState.create({
      // The shared page's content comes from its room; until then, one empty paragraph.
      doc: session.doc ?? schema.node('doc', null, [schema.nodes.paragraph!.create()]),
      plugins: [
        ...session.plugins,
        slashMenu(blockChoices(choiceContext(page, () => view, uploads)), (view) => session.boundary(view)),
        rules,
        formatting(session),
        keymap({ 'Mod-s': () => (void session.save(), true), 'Mod-k': () => (addLink(page, view), true) }),
        keymap(baseKeymap),
        dropCursor(),
        gapCursor(),
        imageUpload(uploads, (message) => page.show(message)),
        blockSettings(page.root.querySelector('.block-settings')!),
        dragHandle(),
      ],
    }),
    attributes: { 'aria-label': 'Page content', 'aria-multiline': 'true', role: 'textbox', spellcheck: 'true', class: 'editor-content' },
    // `this`, not `view`: the shared page's plugin dispatches while the view is being made.
    dispatchTransaction(this: EditorView, tr) {
      this.updateState(this.state.apply(tr));
      session.applied(tr);
    },
  });
  return view;
}

/** The page's lists of targets (its datalists), and its file chooser, whose file is uploaded and put in a file block. */
function choiceContext(page: EditorPage, view: () => EditorView, uploads: Uploads): ChoiceContext {
  const chooser = page.root.querySelector<HTMLInputElement>('input.any-file')!;
  chooser.addEventListener('change', () => {
    const file = chooser.files?.[0];
    chooser.value = '';
    if (file) void insertFile(view(), file, uploads, (message) => page.show(message)).then(() => view().focus());
  });
  return {
    firstTarget: (list) => document.querySelector<HTMLOptionElement>(`#${list} option`)?.value,
    chooseFile: () => chooser.click(),
  };
}

/** Links the selected text, then puts the focus in the link's target (in the block settings). */
function addLink(page: EditorPage, view: EditorView) {
  const { from, to, empty } = view.state.selection;
  if (empty) return page.show('Select the text to link first.', 'problem');
  view.dispatch(view.state.tr.addMark(from, to, marks.link!.create({ ref: { kind: 'url', url: '' } })));
  (page.root.querySelector('.block-settings input') as HTMLInputElement | null)?.focus();
}

function wireToolbar(page: EditorPage, session: Session, view: EditorView, uploads: Uploads) {
  const { root } = page;
  const run = (command: Command) => () => {
    command(view.state, view.dispatch, view);
    view.focus();
  };
  root.querySelector('button.save')?.addEventListener('click', () => void session.save());
  root.querySelector('button.undo')?.addEventListener('click', run(session.undo));
  root.querySelector('button.redo')?.addEventListener('click', run(session.redo));
  for (const [name, mark] of Object.entries({ bold: marks.bold!, italic: marks.italic!, code: marks.code!, strikethrough: marks.strikethrough! })) {
    root.querySelector(`button.mark-${name}`)?.addEventListener('click', run(toggleMark(mark)));
  }
  root.querySelector('button.mark-link')?.addEventListener('click', () => addLink(page, view));
  page.titleInput.addEventListener('input', () => session.titleChanged());
  const chooser = root.querySelector<HTMLInputElement>('input.image-file')!;
  root.querySelector('button.insert-image')?.addEventListener('click', () => chooser.click());
  chooser.addEventListener('change', () => {
    const files = [...(chooser.files ?? [])];
    chooser.value = '';
    void insertImages(view, files, uploads, (message) => page.show(message)).then(() => view.focus());
  });
}

void start();
