import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** An editor's script, bundled once per process from its sources (the .ts files, or the compiled .js in dist/): named by its hash, kept gzipped too. */
export interface EditorBundle {
  name: string;
  body: Buffer;
  gzipped: Buffer;
}

/** The block editor (`editor-….js`) and the markdown editor's source mode (`markdown-source-….js`), by the file each starts from. */
const entries = { blocks: { file: 'client', prefix: 'editor' }, markdown: { file: 'markdownSource', prefix: 'markdown-source' } } as const;
const bundles = new Map<keyof typeof entries, Promise<EditorBundle>>();

/** Bundled on the first edit (a few hundred milliseconds), not at start: most processes never edit. */
export function editorBundle(which: keyof typeof entries = 'blocks'): Promise<EditorBundle> {
  let bundle = bundles.get(which);
  if (!bundle) {
    bundle = bundleEditor(entries[which]);
    bundle.catch(() => bundles.delete(which));
    bundles.set(which, bundle);
  }
  return bundle;
}

/** The bundle a served name is, if it is one. */
export async function editorBundleNamed(name: string): Promise<EditorBundle | undefined> {
  const which = (Object.keys(entries) as Array<keyof typeof entries>).find((key) => name.startsWith(`${entries[key].prefix}-`));
  if (!which) return undefined;
  const bundle = await editorBundle(which);
  return bundle.name === name ? bundle : undefined;
}

async function bundleEditor(entry: { file: string; prefix: string }): Promise<EditorBundle> {
  const source = ['ts', 'js'].map((extension) => fileURLToPath(new URL(`./editor/${entry.file}.${extension}`, import.meta.url))).find((file) => existsSync(file));
  if (!source) throw new Error(`An editor’s sources are missing (api/webApp/editor/${entry.file})`);
  const result = await build({ entryPoints: [source], bundle: true, format: 'iife', minify: true, target: 'es2020', write: false, legalComments: 'none', logLevel: 'silent' });
  const body = Buffer.from(result.outputFiles[0]!.contents);
  const name = `${entry.prefix}-${createHash('sha256').update(body).digest('base64url').slice(0, 12)}.js`;
  return { name, body, gzipped: gzipSync(body, { level: 9 }) };
}
