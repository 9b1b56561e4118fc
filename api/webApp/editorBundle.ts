import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The block editor's script, bundled once per process from its sources (the .ts files, or the compiled .js in dist/): named by its hash, kept gzipped too. */
export interface EditorBundle {
  name: string;
  body: Buffer;
  gzipped: Buffer;
}

let bundle: Promise<EditorBundle> | undefined;

/** Bundled on the first edit (a few hundred milliseconds), not at start: most processes never edit. */
export function editorBundle(): Promise<EditorBundle> {
  bundle ??= bundleEditor().catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

async function bundleEditor(): Promise<EditorBundle> {
  const entry = ['ts', 'js'].map((extension) => fileURLToPath(new URL(`./editor/client.${extension}`, import.meta.url))).find((file) => existsSync(file));
  if (!entry) throw new Error('The block editor’s sources are missing (api/webApp/editor/client)');
  const result = await build({ entryPoints: [entry], bundle: true, format: 'iife', minify: true, target: 'es2020', write: false, legalComments: 'none', logLevel: 'silent' });
  const body = Buffer.from(result.outputFiles[0]!.contents);
  const name = `editor-${createHash('sha256').update(body).digest('base64url').slice(0, 12)}.js`;
  return { name, body, gzipped: gzipSync(body, { level: 9 }) };
}
