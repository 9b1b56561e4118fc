import type { Mark, Node as PMNode } from 'prosemirror-model';
import { NodeSelection, Plugin, type EditorState } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { refLabel, schema } from '../../../domain/documents/editor/index.js';
import { growTable, removePart, setAttributes } from './blockCommands.js';

/**
 * The settings of the block the cursor is in, beside the text: a hint's style, a code block's
 * language, title and line numbers, a tab's title, an image's caption, alt text and width, where an embed, a file,
 * a page link, reusable content or an API operation points, a task's state, a table's rows and columns, a link's target, and the markdown of a block the editor
 * keeps as written. Plain form controls, so each is reached and changed from the keyboard.
 */
type Target = { node: PMNode; pos: number } | { link: Mark; from: number; to: number };

function targetOf(state: EditorState): Target | undefined {
  const { selection } = state;
  if (selection instanceof NodeSelection && hasSettings(selection.node)) return { node: selection.node, pos: selection.from };
  const $from = selection.$from;
  // A link ends where its text does (not inclusive): the text after the cursor counts too.
  const link = [...$from.marks(), ...($from.nodeAfter?.marks ?? [])].find((mark) => mark.type === schema.marks.link);
  if (link) {
    const parent = $from.parent;
    const start = $from.start();
    let from = $from.pos;
    let to = $from.pos;
    parent.forEach((child, offset) => {
      const at = start + offset;
      if (link.isInSet(child.marks) && at <= $from.pos && at + child.nodeSize >= $from.pos) {
        from = Math.min(from, at);
        to = Math.max(to, at + child.nodeSize);
      }
    });
    return { link, from, to };
  }
  for (let depth = $from.depth; depth > 0; depth -= 1) {
    const node = $from.node(depth);
    if (hasSettings(node)) return { node, pos: $from.before(depth) };
  }
  return undefined;
}

const withSettings = new Set(['hint', 'code_block', 'tab', 'step', 'image', 'gitbook_void', 'opaque', 'table', 'list_item']);
const hasSettings = (node: PMNode) => withSettings.has(node.type.name) && (node.type.name !== 'list_item' || node.attrs.checked !== null);

function field(label: string, control: HTMLElement): HTMLElement {
  const wrapper = document.createElement('label');
  wrapper.className = 'setting';
  wrapper.append(label, control);
  return wrapper;
}

function input(value: string, onChange: (value: string) => void, type = 'text'): HTMLInputElement {
  const element = document.createElement('input');
  element.type = type;
  element.value = value;
  element.addEventListener('change', () => onChange(element.value));
  return element;
}

/** An input offering the choices of a datalist of the page (the branch's other pages, for a link). */
function withList(element: HTMLInputElement, list: string): HTMLInputElement {
  element.setAttribute('list', list);
  return element;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  element.addEventListener('click', onClick);
  return element;
}

export function blockSettings(panel: HTMLElement): Plugin {
  return new Plugin({ view: (view) => new SettingsView(view, panel) });
}

class SettingsView {
  private shown = '';

  constructor(
    private readonly view: EditorView,
    private readonly panel: HTMLElement,
  ) {
    this.update();
  }

  update() {
    const target = targetOf(this.view.state);
    const signature = !target ? '' : 'link' in target ? `link:${target.from}:${JSON.stringify(target.link.attrs)}` : `${target.pos}:${target.node.type.name}:${JSON.stringify(target.node.attrs)}`;
    if (signature === this.shown) return;
    this.shown = signature;
    this.panel.replaceChildren(...(target ? this.controls(target) : []));
    this.panel.hidden = !target;
  }

  private set(pos: number, attrs: Record<string, unknown>) {
    setAttributes(pos, attrs)(this.view.state, this.view.dispatch);
  }

  private controls(target: Target): HTMLElement[] {
    if ('link' in target) {
      const { from, to, link } = target;
      return [
        heading('Link'),
        field(
          'Links to (a URL, or a page: type its name)',
          withList(
            input(refLabel(link.attrs.ref), (url) => {
              const mark = schema.marks.link!.create({ ref: { kind: 'url', url } });
              this.view.dispatch(this.view.state.tr.removeMark(from, to, schema.marks.link).addMark(from, to, mark));
            }),
            'page-targets',
          ),
        ),
        button('Remove link', () => this.view.dispatch(this.view.state.tr.removeMark(from, to, schema.marks.link))),
      ];
    }
    const { node, pos } = target;
    switch (node.type.name) {
      case 'hint': {
        const select = document.createElement('select');
        for (const style of ['info', 'success', 'warning', 'danger']) select.add(new Option(style[0]!.toUpperCase() + style.slice(1), style, false, node.attrs.style === style));
        select.addEventListener('change', () => this.set(pos, { style: select.value }));
        return [heading('Hint'), field('Style', select)];
      }
      case 'code_block': {
        const numbers = input('', () => {}, 'checkbox');
        numbers.checked = node.attrs.lineNumbers === true;
        numbers.addEventListener('change', () => this.set(pos, { lineNumbers: numbers.checked ? true : null }));
        return [
          heading('Code'),
          field(
            'Language',
            input(String(node.attrs.syntax ?? ''), (syntax) => this.set(pos, { syntax: syntax.trim() || null })),
          ),
          field(
            'Title',
            input(String(node.attrs.title ?? ''), (title) => this.set(pos, { title: title || null })),
          ),
          field('Line numbers', numbers),
        ];
      }
      case 'tab':
        return [
          heading('Tab'),
          field(
            'Title',
            input(String(node.attrs.title), (title) => this.set(pos, { title })),
          ),
          paragraph('Type / then “new tab” for another.'),
          button('Remove this tab', () => removePart(pos)(this.view.state, this.view.dispatch)),
        ];
      case 'step':
        return [heading('Step'), paragraph('Type / then “new step” for another.'), button('Remove this step', () => removePart(pos)(this.view.state, this.view.dispatch))];
      case 'image': {
        const width = input(
          node.attrs.width === null ? '' : String(node.attrs.width),
          (value) => this.set(pos, { width: /^\d{1,5}$/.test(value.trim()) && Number(value) > 0 ? Number(value) : null }),
          'number',
        );
        width.min = '1';
        width.placeholder = 'as large as it is';
        return [
          heading('Image'),
          field(
            'Caption',
            input(String(node.attrs.caption ?? ''), (caption) => this.set(pos, { caption: caption.trim() || null })),
          ),
          field(
            'Alt text',
            input(String(node.attrs.alt ?? ''), (alt) => this.set(pos, { alt: alt || null })),
          ),
          field('Width in pixels', width),
        ];
      }
      case 'gitbook_void':
        return this.voidControls(node, pos);
      case 'opaque': {
        const area = document.createElement('textarea');
        area.value = String(node.attrs.source);
        area.rows = Math.min(16, area.value.split('\n').length + 1);
        area.addEventListener('change', () => this.set(pos, { source: area.value }));
        return [heading('Markdown'), paragraph('The editor keeps this block as written. Change its markdown here.'), field('Markdown', area)];
      }
      case 'table':
        return [
          heading('Table'),
          button('Add a row', () => growTable(pos, 'row')(this.view.state, this.view.dispatch)),
          button('Add a column', () => growTable(pos, 'column')(this.view.state, this.view.dispatch)),
        ];
      case 'list_item': {
        const done = input('', () => {}, 'checkbox');
        done.checked = node.attrs.checked === true;
        done.addEventListener('change', () => this.set(pos, { checked: done.checked }));
        return [heading('Task'), field('Done', done)];
      }
      default:
        return [];
    }
  }

  /** A block that points somewhere (an embed, a file, a page, reusable content, an API operation): where, and how. */
  private voidControls(node: PMNode, pos: number): HTMLElement[] {
    const data = node.attrs.data as Record<string, unknown>;
    const setData = (more: Record<string, unknown>) => this.set(pos, { data: { ...data, ...more } });
    const target = (label: string, list: string) =>
      field(
        label,
        withList(
          input(refLabel(data.ref), (url) => setData({ ref: { kind: 'url', url } })),
          list,
        ),
      );
    switch (node.attrs.type) {
      case 'embed':
        return [
          heading('Embed'),
          field(
            'URL',
            input(String(data.url ?? ''), (url) => setData({ url }), 'url'),
          ),
        ];
      case 'content-ref':
        return [heading('Page link'), target('Page (type its name)', 'page-targets')];
      case 'file':
        return [heading('File'), target('File (type its name)', 'file-targets')];
      case 'reusable-content':
        return [heading('Reusable content'), target('Reusable content (type its name)', 'reusable-targets'), paragraph('Shared by every page that includes it: change it in its own file.')];
      case 'openapi-operation':
      case 'swagger': {
        const spec =
          node.attrs.type === 'swagger'
            ? target('Specification (a URL or a file)', 'file-targets')
            : field(
                'Specification (type its name)',
                withList(
                  input(refLabel(data.ref), (slug) => setData({ ref: { kind: 'openapi', spec: slug.trim() } })),
                  'spec-targets',
                ),
              );
        const method = document.createElement('select');
        for (const name of ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace']) method.add(new Option(name.toUpperCase(), name, false, data.method === name));
        method.addEventListener('change', () => setData({ method: method.value }));
        return [
          heading('API operation'),
          spec,
          field('Method', method),
          field(
            'Path',
            input(String(data.path ?? ''), (path) => setData({ path: path.trim() })),
          ),
        ];
      }
      default:
        return [heading('Block'), paragraph('Written as a GitBook tag; moved and deleted as a whole.')];
    }
  }

  destroy() {
    this.panel.replaceChildren();
  }
}

function heading(text: string) {
  const element = document.createElement('h2');
  element.textContent = text;
  return element;
}

function paragraph(text: string) {
  const element = document.createElement('p');
  element.className = 'muted';
  element.textContent = text;
  return element;
}
