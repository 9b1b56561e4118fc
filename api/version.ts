import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Runs from api/ in a checkout and from dist/api/ once built: take the nearest package.json above.
const manifestPath = ['../package.json', '../../package.json'].map((relative) => fileURLToPath(new URL(relative, import.meta.url))).find((candidate) => existsSync(candidate));
const manifest = JSON.parse(readFileSync(manifestPath ?? 'package.json', 'utf8')) as { version: string };

export const apiVersion = manifest.version;
/** When this process started serving: the closest thing to a build date a source checkout has. */
export const buildDate = new Date().toISOString();
