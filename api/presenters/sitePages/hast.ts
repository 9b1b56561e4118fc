import type { Element, ElementContent, Properties, Text } from 'hast';

export type Child = ElementContent | string | null | undefined | false | Child[];

/** A hast element: children flattened, strings as text nodes, empty ones dropped. User text only ever enters as a text node or a property value. */
export function el(tagName: string, properties: Properties = {}, ...children: Child[]): Element {
  return { type: 'element', tagName, properties, children: contents(children) };
}

export const text = (value: string): Text => ({ type: 'text', value });

function contents(children: Child[]): ElementContent[] {
  const out: ElementContent[] = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) out.push(...contents(child));
    else if (typeof child === 'string') {
      if (child) out.push(text(child));
    } else out.push(child);
  }
  return out;
}

/** Only web and mail targets become links: `javascript:`, `data:` and the like are dropped. */
export function safeHref(url: string): string | undefined {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || /^[\s\\/]*\\/.test(trimmed)) return undefined;
  return trimmed; // relative
}
