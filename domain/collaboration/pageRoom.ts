import type { Node as PMNode } from 'prosemirror-model';
import { prosemirrorToYXmlFragment, updateYFragment, yXmlFragmentToProseMirrorRootNode } from 'y-prosemirror';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import type { UserRecord } from '../../storage/users.js';
import { type EditedBranch, editedBranchHead, readPageBlocks, savePageBlocks } from '../changeRequests/index.js';
import type { ContentDeps } from '../common/deps.js';
import { log } from '../common/log.js';
import { documentOfBlocks, keysAfterSave, openedBlocks, schema, withKeys, writtenBlocks, type OpenedBlocks } from '../documents/editor/index.js';

/**
 * A page being written by several people at once: one Yjs document per page of a branch,
 * shared with each writer's editor over a connection (y-protocols' sync and awareness messages),
 * and written to its branch by the server: a commit after a pause in typing, as
 * the block editor saves alone (unchanged blocks byte for byte). A push to the branch meanwhile
 * is merged in and shows in every editor; the same blocks changed on both sides end the session
 * with both versions handed to the writers (`conflict`).
 */
export interface PageConnection {
  user: UserRecord;
  send(message: Uint8Array): void;
  /** Ends the connection; `tooLarge`: for a page grown past what a room holds (the editor doesn't come back). */
  close(reason?: 'tooLarge'): void;
}

/** What the room tells its writers beside the document: JSON, after the message type `control`. */
export type RoomNotice =
  | { type: 'title'; title: string }
  | { type: 'status'; state: 'saved' | 'saving' | 'unsaved' | 'problem'; message?: string; head?: string }
  | { type: 'conflict'; written: string; base: string; title: string };

export const messageTypes = { sync: 0, awareness: 1, control: 100 } as const;

/** How long after the last change a room writes its commit, and how often it looks for pushes. */
export const roomTiming = { saveAfterMs: 1500, headCheckMs: 2000 };

/**
 * The most a room's shared page may hold, encoded: a page's markdown has a million characters at
 * most, and its Yjs document a few times that. Past it, the writer sending more is disconnected
 * rather than let one writer grow the server's memory without end.
 */
export const roomLimits = { documentBytes: 16 * 1024 * 1024 };

const rooms = new Map<string, Promise<PageRoom>>();

/** A page's room: on a change request's branch, or on the space's primary branch (live edits). */
export interface RoomPlace {
  edited: EditedBranch;
  pageId: string;
}

/** The room of a page, opened from its branch's head when no one is in it. */
export async function joinPageRoom(deps: ContentDeps, input: RoomPlace, connection: PageConnection): Promise<PageRoom> {
  const name = `${input.edited.space.id}/${input.edited.changeRequest?.id ?? 'live'}/${input.pageId}`;
  let room = rooms.get(name);
  if (!room) {
    room = PageRoom.open(deps, input, () => rooms.delete(name));
    rooms.set(name, room);
    room.catch(() => rooms.delete(name));
  }
  const opened = await room;
  opened.join(connection);
  return opened;
}

/** Writes every room's unsaved changes and closes it (a stopping server). */
export async function closePageRooms(): Promise<void> {
  const open = await Promise.allSettled([...rooms.values()]);
  await Promise.all(open.map((room) => (room.status === 'fulfilled' ? room.value.close() : undefined)));
}

export class PageRoom {
  private readonly doc = new Y.Doc();
  private readonly fragment = this.doc.getXmlFragment('prosemirror');
  private readonly awareness = new awarenessProtocol.Awareness(this.doc);
  private readonly connections = new Map<PageConnection, Set<number>>();
  private known: OpenedBlocks;
  private version = 0;
  private savedVersion = 0;
  private titleChanged = false;
  private lastAuthor: UserRecord | undefined;
  private saving: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly headCheck: ReturnType<typeof setInterval>;
  private closed = false;
  /** The shared page's encoded size, measured, plus the updates received since (an upper bound). */
  private size = 0;

  private constructor(
    private readonly deps: ContentDeps,
    private readonly place: RoomPlace,
    private base: string,
    private title: string,
    doc: PMNode,
    private readonly onClose: () => void,
  ) {
    this.awareness.setLocalState(null); // the server is no writer
    prosemirrorToYXmlFragment(doc, this.fragment);
    this.known = openedBlocks(doc);
    this.size = Y.encodeStateAsUpdate(this.doc).length;
    this.doc.on('update', (update: Uint8Array, origin: unknown) => this.updated(update, origin));
    this.awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      const changed = [...added, ...updated, ...removed];
      const clients = origin instanceof Object && this.connections.has(origin as PageConnection) ? this.connections.get(origin as PageConnection)! : undefined;
      if (clients) for (const id of added) clients.add(id);
      if (clients) for (const id of removed) clients.delete(id);
      this.broadcast(frame(messageTypes.awareness, (encoder) => encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed))));
    });
    this.headCheck = setInterval(() => void this.checkHead(), roomTiming.headCheckMs);
    this.headCheck.unref();
  }

  static async open(deps: ContentDeps, place: RoomPlace, onClose: () => void): Promise<PageRoom> {
    const opened = await readPageBlocks(deps, place.edited, place.pageId);
    return new PageRoom(deps, place, opened.head, opened.title, documentOfBlocks(opened.blocks), onClose);
  }

  join(connection: PageConnection): void {
    this.connections.set(connection, new Set());
    connection.send(frame(messageTypes.sync, (encoder) => syncProtocol.writeSyncStep1(encoder, this.doc)));
    const states = [...this.awareness.getStates().keys()];
    if (states.length) connection.send(frame(messageTypes.awareness, (encoder) => encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(this.awareness, states))));
    this.notify({ type: 'title', title: this.title }, connection);
    this.notify(this.status(), connection);
  }

  /** A message from a writer's editor. */
  receive(connection: PageConnection, message: Uint8Array): void {
    const decoder = decoding.createDecoder(message);
    const type = decoding.readVarUint(decoder);
    if (type === messageTypes.sync) {
      if (!this.fits(message.length)) {
        this.notify(
          {
            type: 'status',
            state: 'problem',
            message: `The page would grow past the ${roomLimits.documentBytes / 1024 / 1024} MB a shared page may hold: this editor was disconnected, and what it added is not saved`,
          },
          connection,
        );
        return connection.close('tooLarge');
      }
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, messageTypes.sync);
      syncProtocol.readSyncMessage(decoder, encoder, this.doc, connection);
      if (encoding.length(encoder) > 1) connection.send(encoding.toUint8Array(encoder));
    } else if (type === messageTypes.awareness) {
      awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), connection);
    } else if (type === messageTypes.control) {
      const notice = JSON.parse(decoding.readVarString(decoder)) as { type: string; title?: unknown };
      if (notice.type === 'save') void this.save();
      if (notice.type === 'title' && typeof notice.title === 'string' && notice.title.trim() && notice.title.length <= 256 && notice.title !== this.title) {
        this.title = notice.title;
        this.titleChanged = true;
        this.lastAuthor = connection.user;
        this.notify({ type: 'title', title: this.title }, undefined, connection);
        this.changed();
      }
    }
  }

  /** Whether the page can take `bytes` more; measured again (deletions shrink it) before saying no. */
  private fits(bytes: number): boolean {
    if (this.size + bytes > roomLimits.documentBytes) this.size = Y.encodeStateAsUpdate(this.doc).length;
    if (this.size + bytes > roomLimits.documentBytes) return false;
    this.size += bytes;
    return true;
  }

  leave(connection: PageConnection): void {
    const clients = this.connections.get(connection);
    this.connections.delete(connection);
    if (clients?.size) awarenessProtocol.removeAwarenessStates(this.awareness, [...clients], null);
    if (this.connections.size === 0) void this.close();
  }

  /** Writes what isn't saved yet, then forgets the room: the next writer opens it again from the branch. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.headCheck);
    clearTimeout(this.timer);
    this.onClose();
    await this.saving;
    if (this.version !== this.savedVersion || this.titleChanged)
      await this.write().catch((error: unknown) => log.warn('A page’s last changes in a shared editor were not saved', { error: (error as Error).message }));
    for (const connection of this.connections.keys()) connection.close();
    this.doc.destroy();
  }

  private updated(update: Uint8Array, origin: unknown) {
    this.broadcast(
      frame(messageTypes.sync, (encoder) => syncProtocol.writeUpdate(encoder, update)),
      origin as PageConnection,
    );
    if (origin === this) return; // the room's own changes: keys, or a push merged in
    this.version += 1;
    if (origin instanceof Object && this.connections.has(origin as PageConnection)) this.lastAuthor = (origin as PageConnection).user;
    this.changed();
  }

  private changed() {
    clearTimeout(this.timer);
    this.notify({ type: 'status', state: 'unsaved' });
    this.timer = setTimeout(() => void this.save(), roomTiming.saveAfterMs);
  }

  /** Saves now (the Save button), or after the save under way. */
  save(): Promise<void> {
    clearTimeout(this.timer);
    if (this.closed) return Promise.resolve();
    if (this.saving) return this.saving.then(() => (this.version !== this.savedVersion ? this.save() : undefined));
    this.saving = this.write()
      .catch((error: unknown) => this.notify({ type: 'status', state: 'problem', message: (error as Error).message }))
      .finally(() => (this.saving = undefined));
    return this.saving;
  }

  /** A push or another writer moved the branch: the room saves, which merges their change in. */
  private async checkHead() {
    if (this.saving || this.closed) return;
    try {
      if ((await editedBranchHead(this.deps, this.place.edited)) !== this.base) await this.save();
    } catch (error) {
      log.warn('Reading a branch’s head for a shared editor failed', { error: (error as Error).message });
    }
  }

  private async write(): Promise<void> {
    const version = this.version;
    const sent = yXmlFragmentToProseMirrorRootNode(this.fragment, schema);
    this.notify({ type: 'status', state: 'saving' });
    const author = this.lastAuthor ?? this.connections.keys().next().value?.user;
    if (!author) return;
    const saved = await savePageBlocks(this.deps, { ...this.place, base: this.base, title: this.title, blocks: writtenBlocks(sent, this.known), author });
    if (saved.result === 'conflict') {
      this.notify({ type: 'conflict', written: saved.written, base: this.base, title: this.title });
      this.savedVersion = this.version;
      this.titleChanged = false;
      void this.close();
      return;
    }
    this.titleChanged = false;
    if (!saved.merged) {
      this.rekey(withKeys(sent, saved.keys), this.version === version);
    } else if (this.version === version) {
      // Someone else's change (a push) came in with the save: every editor gets it.
      const next = documentOfBlocks(saved.blocks);
      this.doc.transact(() => updateYFragment(this.doc, this.fragment, next, { mapping: new Map(), isOMark: new Map() }), this);
      this.known = openedBlocks(next);
    } else {
      // Merged while typed on: the next save merges from the same base again.
      this.changed();
      return;
    }
    this.base = saved.commit;
    this.savedVersion = version;
    this.notify(this.version === version ? { type: 'status', state: 'saved', head: saved.commit } : { type: 'status', state: 'unsaved' });
  }

  /**
   * Gives the shared document's blocks the keys of the saved blocks with their content; `same`:
   * nothing changed since the save read the document, whose blocks are then the saved ones.
   */
  private rekey(saved: PMNode, same: boolean) {
    const now = same ? saved : yXmlFragmentToProseMirrorRootNode(this.fragment, schema);
    const keys = same ? saved.content.content.map((node) => (node.attrs.key as string | null) ?? null) : keysAfterSave(now, saved);
    this.doc.transact(() => {
      keys.forEach((key, index) => {
        const element = this.fragment.get(index);
        if (element instanceof Y.XmlElement && element.getAttribute('key') !== key) {
          if (key === null) element.removeAttribute('key');
          else element.setAttribute('key', key);
        }
      });
    }, this);
    this.known = openedBlocks(same ? saved : yXmlFragmentToProseMirrorRootNode(this.fragment, schema));
  }

  private status(): RoomNotice {
    return { type: 'status', state: this.version === this.savedVersion && !this.titleChanged ? 'saved' : 'unsaved', head: this.base };
  }

  private notify(notice: RoomNotice, only?: PageConnection, except?: PageConnection) {
    const message = frame(messageTypes.control, (encoder) => encoding.writeVarString(encoder, JSON.stringify(notice)));
    if (only) only.send(message);
    else this.broadcast(message, except);
  }

  private broadcast(message: Uint8Array, except?: PageConnection) {
    for (const connection of this.connections.keys()) if (connection !== except) connection.send(message);
  }
}

function frame(type: number, write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
}
