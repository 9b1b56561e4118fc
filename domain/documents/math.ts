import type { ElementContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import katex from 'katex';
import { el } from './hast.js';

/** Longer formulas are shown as their source: rendering runs as the page does. */
const formulaLimit = 4000;

/**
 * A TeX formula as MathML, which browsers lay out natively: no stylesheet, font or script to ship.
 * KaTeX escapes the formula's text, follows no links (`trust` off) and bounds macro expansion; a
 * formula it can't read is shown as its source.
 */
export function mathTree(formula: string, display: boolean): ElementContent {
  if (formula.length > formulaLimit) return el('code', { className: ['math-source'] }, formula);
  let markup: string;
  try {
    markup = katex.renderToString(formula, { output: 'mathml', displayMode: display, throwOnError: true, trust: false, maxExpand: 500 });
  } catch {
    return el('code', { className: ['math-source'] }, formula);
  }
  const root = fromHtml(markup, { fragment: true });
  return el('span', { className: ['math-formula'] }, root.children as ElementContent[]);
}
