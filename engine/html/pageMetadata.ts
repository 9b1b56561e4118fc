import { parse } from 'parse5';

/** What a web page says about itself in its `<head>`: its Open Graph (or Twitter) title and site name, its icon. */
export interface PageMetadata {
  title?: string;
  siteName?: string;
  icon?: string;
}

/** Only the head is read, and only this much of the page: the tags are at its start. */
const maxHeadBytes = 256 * 1024;

interface Parse5Node {
  nodeName: string;
  tagName?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: Parse5Node[];
  value?: string;
  content?: Parse5Node;
}

/**
 * The metadata of an HTML page (parse5, the parser browsers' behaviour is specified by), its
 * relative URLs resolved from `baseUrl`. The tree is walked with a stack, not recursion, so a
 * page nesting thousands of elements deep costs time in proportion, never the stack.
 */
export function pageMetadata(html: string, baseUrl: string): PageMetadata {
  const end = html.search(/<\/head\s*>/i);
  const head = (end === -1 ? html : html.slice(0, end)).slice(0, maxHeadBytes);
  const document = parse(head) as unknown as Parse5Node;
  const meta = new Map<string, string>();
  let title: string | undefined;
  let icon: string | undefined;
  const pending: Parse5Node[] = [document];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const attribute = (name: string) => node!.attrs?.find((attr) => attr.name === name)?.value;
    if (node.tagName === 'meta') {
      const key = (attribute('property') ?? attribute('name'))?.toLowerCase();
      const content = attribute('content')?.trim();
      if (key && content && !meta.has(key)) meta.set(key, content);
    } else if (node.tagName === 'title' && title === undefined) {
      title =
        (node.childNodes ?? [])
          .map((child) => child.value ?? '')
          .join('')
          .trim() || undefined;
    } else if (node.tagName === 'link' && icon === undefined && /(^|\s)icon(\s|$)/i.test(attribute('rel') ?? '')) {
      icon = attribute('href');
    }
    if (node.childNodes) for (let index = node.childNodes.length - 1; index >= 0; index -= 1) pending.push(node.childNodes[index]!);
  }
  const absolute = (value: string | undefined) => {
    if (!value) return undefined;
    try {
      const url = new URL(value, baseUrl);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
    } catch {
      return undefined;
    }
  };
  const text = (value: string | undefined) => (value ? value.replace(/\s+/g, ' ').trim().slice(0, 300) || undefined : undefined);
  return {
    title: text(meta.get('og:title') ?? meta.get('twitter:title') ?? title),
    siteName: text(meta.get('og:site_name')),
    icon: absolute(icon ?? '/favicon.ico'),
  };
}
