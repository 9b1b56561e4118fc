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

/**
 * Only web and mail targets become links, relative ones included: `javascript:`, `data:` and the
 * like are dropped. Read as a browser reads a URL (WHATWG): tabs and newlines anywhere and control
 * characters or spaces at either end are not part of it, so `java<TAB>script:` is `javascript:`.
 */
export function safeHref(url: string): string | undefined {
  const cleaned = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  let parsed: URL;
  try {
    parsed = new URL(cleaned, 'https://relative.invalid/');
  } catch {
    return undefined;
  }
  return webSchemes.has(parsed.protocol) ? cleaned : undefined;
}

const webSchemes = new Set(['http:', 'https:', 'mailto:']);
