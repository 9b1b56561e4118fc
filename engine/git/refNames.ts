/**
 * Whether git would take this as a full ref name (git-check-ref-format(1)): under `refs/`, no
 * empty, dot-led or `.lock`-ended component, no `..`, `@{`, control character, space, `~`, `^`,
 * `:`, `?`, `*`, `[` or `\`, and no trailing `/` or `.`.
 */
export function isValidRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.endsWith('/') || ref.endsWith('.')) return false;
  if (ref.includes('..') || ref.includes('@{') || /[\u0000-\u0020\u007f~^:?*[\\]/.test(ref)) return false;
  return ref.split('/').every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}
