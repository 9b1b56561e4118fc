import YAML from 'yaml';

/** A page's markdown file: YAML frontmatter (metadata, Quire's `pageId`) and the body. */
export interface PageFile {
  meta: Record<string, unknown>;
  body: string;
}

const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parsePageFile(text: string): PageFile {
  const match = frontmatter.exec(text);
  if (!match) return { meta: {}, body: text };
  let meta: unknown;
  try {
    meta = YAML.parse(match[1] ?? '');
  } catch {
    // Frontmatter that isn't YAML is kept as the start of the body rather than lost.
    return { meta: {}, body: text };
  }
  return { meta: meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {}, body: text.slice(match[0].length) };
}

export function renderPageFile(file: PageFile): string {
  const keys = Object.keys(file.meta).filter((key) => file.meta[key] !== undefined);
  if (keys.length === 0) return file.body;
  const meta = Object.fromEntries(keys.map((key) => [key, file.meta[key]]));
  return `---\n${YAML.stringify(meta).trimEnd()}\n---\n\n${file.body.replace(/^\n+/, '')}`;
}
