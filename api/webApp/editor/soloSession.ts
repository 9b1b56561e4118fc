import type { Node as PMNode } from 'prosemirror-model';
import { closeHistory, history, redo, undo } from 'prosemirror-history';
import { TextSelection, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { documentOfBlocks, keysAfterSave, openedBlocks, sameBlocks, withKeys, writtenBlocks, type EditableBlock, type OpenedBlocks } from '../../../domain/documents/editor/index.js';
import type { EditorPage } from './editorPage.js';
import type { Session } from './session.js';

/**
 * The page saved by this browser alone (no shared editor): each save posts the blocks, unchanged
 * ones by their key, and goes on from the commit it made; a save that merged a push shows it.
 */
export function soloSession(page: EditorPage, opened: { base: string; blocks: EditableBlock[] }): Session {
  let view: EditorView;
  let base = opened.base;
  let savedTitle = page.titleInput.value;
  const doc = documentOfBlocks(opened.blocks);
  let known: OpenedBlocks = openedBlocks(doc);
  let dirty = false;
  let saving: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function edited() {
    dirty = true;
    page.show('Unsaved changes');
    clearTimeout(timer);
    timer = setTimeout(() => void save(), 1500);
  }

  function save(): Promise<void> {
    clearTimeout(timer);
    if (saving) return saving.then(() => (dirty ? save() : undefined));
    if (!dirty && page.titleInput.value === savedTitle) return Promise.resolve();
    saving = send().finally(() => (saving = undefined));
    return saving;
  }

  async function send() {
    dirty = false;
    const sent = view.state.doc;
    const title = page.titleInput.value;
    page.show('Saving…');
    const body = new URLSearchParams({ csrf: page.csrf, base, title, blocks: JSON.stringify(writtenBlocks(sent, known)) });
    let answer: { result: string; head?: string; merged?: boolean; keys?: Array<string | null>; blocks?: EditableBlock[]; written?: string; error?: { message: string } };
    try {
      const response = await fetch(page.root.dataset.save!, { method: 'POST', body, headers: { accept: 'application/json' } });
      answer = (await response.json()) as typeof answer;
      if (!response.ok && answer.result !== 'conflict') throw new Error(answer.error?.message ?? `The save was refused (${response.status})`);
    } catch (error) {
      dirty = true;
      return page.show(`Not saved: ${(error as Error).message}`, 'problem');
    }
    if (answer.result === 'conflict') return page.conflict({ written: answer.written ?? '', base, title });
    savedTitle = title;
    if (!answer.merged) {
      rekey(withKeys(sent, answer.keys ?? []));
    } else if (view.state.doc === sent) {
      // Someone else's changes came in with the save (a push, another writer): the editor shows them.
      replaceDocument(documentOfBlocks(answer.blocks ?? []));
    } else {
      // Merged, and typed on meanwhile: the next save merges from the same base again.
      dirty = true;
      page.show('Unsaved changes');
      timer = setTimeout(() => void save(), 200);
      return;
    }
    base = answer.head!;
    page.show(dirty ? 'Unsaved changes' : 'Saved', dirty ? 'pending' : 'saved');
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

  return {
    doc,
    plugins: [history()],
    undo,
    redo,
    attach: (attached) => (view = attached),
    boundary: (target) => target.dispatch(closeHistory(target.state.tr)),
    applied(tr: Transaction) {
      if (tr.docChanged && tr.getMeta('fromSave') !== true) edited();
    },
    save,
    titleChanged: edited,
    unsaved: () => dirty || saving !== undefined,
  };
}
