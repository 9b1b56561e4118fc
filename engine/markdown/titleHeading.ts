/**
 * A page's body split into its `# Title` line (with the blank lines after it), which is the page's
 * title, and the rest: the text its Document is made from, and whose block keys `revert_page` takes.
 */
export function splitTitleHeading(body: string): { heading: string; text: string } {
  const heading = /^\s*#\s+.*\n+/.exec(body)?.[0] ?? '';
  return { heading, text: body.slice(heading.length) };
}
