import YAML from 'yaml';

/** The most redirects read from `.gitbook.yaml`: a hand-written list, not a database. */
const maxRedirects = 5000;

/**
 * The `redirects:` of a `.gitbook.yaml` (GitBook's Git Sync configuration): an old path below the
 * space's URL → the markdown file that now answers it, both without a leading slash. A file that
 * isn't YAML, or entries that aren't strings, count for nothing: Git Sync reads what it can.
 */
export function parseGitbookRedirects(text: string): Map<string, string> {
  let config: unknown;
  try {
    config = YAML.parse(text, { maxAliasCount: 100 });
  } catch {
    return new Map();
  }
  const declared = (config as { redirects?: unknown } | null)?.redirects;
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) return new Map();
  const redirects = new Map<string, string>();
  for (const [from, to] of Object.entries(declared).slice(0, maxRedirects)) {
    if (typeof to !== 'string') continue;
    const source = normalized(from);
    if (source) redirects.set(source, normalized(to));
  }
  return redirects;
}

const normalized = (path: string) =>
  path
    .trim()
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '');
