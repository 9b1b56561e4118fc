/** The edit page around the editor: its elements, its status line, and the way to the markdown editor when a save can't be merged. */
export interface EditorPage {
  root: HTMLElement;
  csrf: string;
  titleInput: HTMLInputElement;
  show(text: string, state?: 'saved' | 'pending' | 'problem'): void;
  /** The page changed on the same blocks meanwhile: both versions go to the markdown editor, marked, to choose from. */
  conflict(input: { written: string; base: string; title: string }): void;
}

export function editorPage(root: HTMLElement): EditorPage {
  const status = root.querySelector<HTMLElement>('.save-status')!;
  const csrf = (root.querySelector('input[name=csrf]') as HTMLInputElement).value;
  return {
    root,
    csrf,
    titleInput: document.getElementById('page-title') as HTMLInputElement,
    show(text, state = 'pending') {
      if (status.textContent === text && status.dataset.state === state) return; // every keystroke says "Unsaved changes": no relayout for it
      status.textContent = text;
      status.dataset.state = state;
    },
    conflict({ written, base, title }) {
      this.show('The page changed meanwhile where you wrote too. Opening both versions in the markdown editor…', 'problem');
      const form = document.createElement('form');
      form.method = 'post';
      form.action = root.dataset.markdown!;
      for (const [name, value] of Object.entries({ csrf, base, title, markdown: written })) {
        const field = document.createElement('input');
        field.type = 'hidden';
        field.name = name;
        field.value = value;
        form.append(field);
      }
      document.body.append(form);
      form.submit();
    },
  };
}
