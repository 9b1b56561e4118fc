import type { Transaction } from 'prosemirror-state';
import { redoCommand, undoCommand, yCursorPlugin, ySyncPlugin, ySyncPluginKey, yUndoPlugin, yUndoPluginKey } from 'y-prosemirror';
import type { EditorPage } from './editorPage.js';
import { RoomConnection, type Notice } from './roomConnection.js';
import type { Session } from './session.js';

/** Eight marks for the other writers, their colours in the stylesheet (`collab-0` … `collab-7`). */
const colours = ['#0969da', '#1a7f37', '#9a6700', '#cf222e', '#8250df', '#bf3989', '#0a7d7a', '#bc4c00'];

/**
 * The page shared with the other writers in its room (Yjs, y-prosemirror): everyone's typing in
 * everyone's editor, their cursors and names, undo of one's own changes; the server saves the
 * shared page to the branch, and its notices say when (and bring a title someone changed).
 * Resolves once the page is the room's; rejects when the room can't be reached.
 */
export async function sharedSession(page: EditorPage, input: { url: string; ticketUrl: string; userName: string }): Promise<Session> {
  let state: 'saved' | 'saving' | 'unsaved' | 'problem' = 'saved';
  let titleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Saves asked for (Save, Ctrl+S) that the room's next "saved" answers. */
  const waiting: Array<() => void> = [];
  const notice = (received: Notice) => {
    if (received.type === 'title') {
      if (document.activeElement !== page.titleInput) page.titleInput.value = received.title;
    } else if (received.type === 'conflict') {
      page.conflict(received);
    } else {
      state = received.state;
      if (state === 'saved') for (const resolve of waiting.splice(0)) resolve();
      page.show(
        state === 'saved' ? 'Saved' : state === 'saving' ? 'Saving…' : state === 'unsaved' ? 'Unsaved changes' : `Not saved: ${received.message ?? 'the server refused'}`,
        state === 'saved' ? 'saved' : state === 'problem' ? 'problem' : 'pending',
      );
    }
  };
  const room = new RoomConnection(input.url, {
    notice,
    connected: (connected) => {
      if (!connected && state !== 'problem') page.show('Reconnecting to the shared page…', 'problem');
    },
    freshUrl: async () => ((await (await fetch(input.ticketUrl, { headers: { accept: 'application/json' } })).json()) as { url: string }).url,
  });
  await room.connect();
  const index = room.doc.clientID % colours.length;
  room.awareness.setLocalStateField('user', { name: input.userName, color: colours[index], index });
  const fragment = room.doc.getXmlFragment('prosemirror');
  return {
    doc: undefined,
    plugins: [
      ySyncPlugin(fragment),
      yCursorPlugin(room.awareness, {
        // The app's policy allows no style attribute: each writer's colour is a class.
        cursorBuilder: (user: { name: string; index?: number }) => {
          const cursor = document.createElement('span');
          cursor.className = `collab-cursor collab-${user.index ?? 0}`;
          const name = document.createElement('span');
          name.className = 'collab-name';
          name.textContent = user.name;
          cursor.append('\u2060', name, '\u2060');
          return cursor;
        },
        selectionBuilder: (user: { index?: number }) => ({ class: `collab-selection collab-${user.index ?? 0}` }),
      }),
      yUndoPlugin(),
    ],
    undo: undoCommand,
    redo: redoCommand,
    attach: () => undefined,
    boundary: (view) => (yUndoPluginKey.getState(view.state) as { undoManager?: { stopCapturing(): void } } | undefined)?.undoManager?.stopCapturing(),
    applied(tr: Transaction) {
      const fromRoom = (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin === true;
      if (tr.docChanged && !fromRoom) {
        state = 'unsaved';
        page.show('Unsaved changes');
      }
    },
    save: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        room.control({ type: 'save' });
      }),
    titleChanged() {
      state = 'unsaved';
      page.show('Unsaved changes');
      clearTimeout(titleTimer);
      titleTimer = setTimeout(() => room.control({ type: 'title', title: page.titleInput.value }), 400);
    },
    unsaved: () => state !== 'saved',
  };
}
