import { NodeSelection, Plugin } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';

/**
 * A handle beside the top-level block under the pointer: dragging it moves the block (the
 * editor's own drop, with its drop cursor). From the keyboard, Alt+↑ and Alt+↓ move a block.
 */
export function dragHandle(): Plugin {
  return new Plugin({ view: (view) => new HandleView(view) });
}

class HandleView {
  private readonly handle: HTMLElement;
  private pos: number | undefined;

  constructor(private readonly view: EditorView) {
    this.handle = document.createElement('div');
    this.handle.className = 'drag-handle';
    this.handle.draggable = true;
    this.handle.title = 'Drag to move this block (Alt+↑ or Alt+↓ from the keyboard)';
    this.handle.setAttribute('aria-hidden', 'true');
    this.handle.textContent = '⠿';
    this.handle.hidden = true;
    this.handle.addEventListener('dragstart', (event) => this.start(event));
    (view.dom.parentNode ?? document.body).appendChild(this.handle);
    view.dom.addEventListener('mousemove', this.follow);
  }

  private readonly follow = (event: MouseEvent) => {
    const found = this.view.posAtCoords({ left: event.clientX, top: event.clientY });
    if (!found) return;
    const $pos = this.view.state.doc.resolve(found.inside >= 0 ? found.inside : found.pos);
    const pos = $pos.depth >= 1 ? $pos.before(1) : found.inside >= 0 ? found.inside : undefined;
    const dom = pos === undefined ? null : (this.view.nodeDOM(pos) as HTMLElement | null);
    if (pos === undefined || !dom || !(dom instanceof HTMLElement)) return;
    this.pos = pos;
    // Shown first: a hidden element has no offsetParent to measure from.
    this.handle.hidden = false;
    const box = (this.handle.offsetParent ?? document.body).getBoundingClientRect();
    const rect = dom.getBoundingClientRect();
    this.handle.style.top = `${rect.top - box.top}px`;
    this.handle.style.left = `${rect.left - box.left - 22}px`;
  };

  private start(event: DragEvent) {
    if (this.pos === undefined || !event.dataTransfer) return;
    const selection = NodeSelection.create(this.view.state.doc, this.pos);
    this.view.dispatch(this.view.state.tr.setSelection(selection));
    const dom = this.view.nodeDOM(this.pos);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', selection.node.textContent);
    if (dom instanceof HTMLElement) event.dataTransfer.setDragImage(dom, 0, 0);
    this.view.dragging = { slice: selection.content(), move: true };
  }

  update() {
    if (this.pos !== undefined && this.pos >= this.view.state.doc.content.size) this.handle.hidden = true;
  }

  destroy() {
    this.view.dom.removeEventListener('mousemove', this.follow);
    this.handle.remove();
  }
}
