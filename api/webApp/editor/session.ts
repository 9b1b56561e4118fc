import type { Node as PMNode } from 'prosemirror-model';
import type { Command, Plugin, Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';

/** How the editor's page is kept: saved by this browser alone (soloSession), or shared with the other writers in a room (sharedSession). */
export interface Session {
  /** The document to start from; the shared one comes from the room. */
  doc: PMNode | undefined;
  plugins: Plugin[];
  undo: Command;
  redo: Command;
  attach(view: EditorView): void;
  /** Ends the undo step under way: a block moved or inserted is undone on its own. */
  boundary(view: EditorView): void;
  /** A transaction the view applied. */
  applied(tr: Transaction): void;
  save(): Promise<void>;
  titleChanged(): void;
  /** Whether leaving now would lose something. */
  unsaved(): boolean;
}
