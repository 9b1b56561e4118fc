import { Plugin, PluginKey, type EditorState } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { BlockChoice } from './blockCommands.js';

/**
 * The slash menu: "/" at the start of an empty paragraph opens a list of blocks, filtered by
 * what follows it ("/hint"); arrows choose, Enter inserts, Escape closes. The list is a listbox
 * the editor names as its active descendant, so a screen reader reads the choice.
 */
interface MenuState {
  /** Where the "/" is, the words typed after it, the highlighted choice; closed: undefined. */
  open?: { from: number; query: string; choices: BlockChoice[]; active: number };
  /** Escape closes the menu until the "/" is gone. */
  dismissedAt?: number;
}

const key = new PluginKey<MenuState>('slashMenu');
const trigger = /^\/([\p{L}\p{N} -]{0,24})$/u;

function menuAt(state: EditorState, previous: MenuState | undefined, blockChoices: BlockChoice[]): MenuState['open'] {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type.name !== 'paragraph' || $from.parentOffset !== $from.parent.content.size) return undefined;
  const match = trigger.exec($from.parent.textContent);
  if (!match) return undefined;
  const from = $from.start();
  if (previous?.dismissedAt === from) return undefined;
  const words = match[1]!.trim().toLowerCase().split(/\s+/).filter(Boolean);
  // Only what can go here (a new tab inside tabs only).
  const choices = blockChoices.filter((choice) => words.every((word) => choice.words.includes(word) || choice.label.toLowerCase().includes(word)) && choice.command(state));
  if (choices.length === 0) return undefined;
  const active = previous?.open?.from === from ? Math.min(previous.open.active, choices.length - 1) : 0;
  return { from, query: match[1]!, choices, active };
}

/** `choices`: the blocks offered; `beforeInsert` ends the undo step under way, so an inserted block is undone on its own. */
export function slashMenu(choices: BlockChoice[], beforeInsert: (view: EditorView) => void = () => undefined): Plugin<MenuState> {
  return new Plugin<MenuState>({
    key,
    state: {
      init: () => ({}),
      apply(tr, value, _old, state) {
        const meta = tr.getMeta(key) as { active?: number; dismiss?: boolean } | undefined;
        if (meta?.dismiss && value.open) return { dismissedAt: value.open.from };
        const dismissedAt = value.dismissedAt !== undefined && trigger.test(state.selection.$from.parent.textContent) ? value.dismissedAt : undefined;
        const open = menuAt(state, { ...value, dismissedAt }, choices);
        if (open && meta?.active !== undefined) open.active = (meta.active + open.choices.length) % open.choices.length;
        return { open, dismissedAt };
      },
    },
    props: {
      handleKeyDown(view, event) {
        const open = key.getState(view.state)?.open;
        if (!open) return false;
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          view.dispatch(view.state.tr.setMeta(key, { active: open.active + (event.key === 'ArrowDown' ? 1 : -1) }));
          return true;
        }
        if (event.key === 'Enter' || event.key === 'Tab') {
          choose(view, open, open.active, beforeInsert);
          return true;
        }
        if (event.key === 'Escape') {
          view.dispatch(view.state.tr.setMeta(key, { dismiss: true }));
          return true;
        }
        return false;
      },
    },
    view: (view) => new MenuView(view, beforeInsert),
  });
}

/** Removes the "/words" and runs the chosen block's command on the now empty paragraph. */
function choose(view: EditorView, open: NonNullable<MenuState['open']>, index: number, beforeInsert: (view: EditorView) => void) {
  const choice = open.choices[index];
  if (!choice) return;
  beforeInsert(view);
  view.dispatch(view.state.tr.delete(open.from, view.state.selection.from));
  choice.command(view.state, view.dispatch, view);
  view.focus();
}

class MenuView {
  private readonly list: HTMLUListElement;

  constructor(
    private readonly view: EditorView,
    private readonly beforeInsert: (view: EditorView) => void,
  ) {
    this.list = document.createElement('ul');
    this.list.className = 'slash-menu';
    this.list.id = 'slash-menu';
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Insert a block');
    this.list.hidden = true;
    // A click chooses without taking the focus from the editor.
    this.list.addEventListener('mousedown', (event) => {
      const item = (event.target as HTMLElement).closest('li');
      const open = key.getState(this.view.state)?.open;
      if (!item || !open) return;
      event.preventDefault();
      choose(this.view, open, Number(item.dataset.index), this.beforeInsert);
    });
    (view.dom.parentNode ?? document.body).appendChild(this.list);
    this.update();
  }

  update() {
    const open = key.getState(this.view.state)?.open;
    const dom = this.view.dom;
    if (!open) {
      this.list.hidden = true;
      dom.removeAttribute('aria-activedescendant');
      dom.removeAttribute('aria-controls');
      return;
    }
    this.list.replaceChildren(
      ...open.choices.map((choice, index) => {
        const item = document.createElement('li');
        item.id = `slash-choice-${index}`;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', String(index === open.active));
        item.dataset.index = String(index);
        item.textContent = choice.label;
        return item;
      }),
    );
    this.list.hidden = false;
    dom.setAttribute('aria-controls', this.list.id);
    dom.setAttribute('aria-activedescendant', `slash-choice-${open.active}`);
    const at = this.view.coordsAtPos(open.from);
    const box = (this.list.offsetParent ?? document.body).getBoundingClientRect();
    this.list.style.left = `${at.left - box.left}px`;
    this.list.style.top = `${at.bottom - box.top + 4}px`;
  }

  destroy() {
    this.list.remove();
  }
}
