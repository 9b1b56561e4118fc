import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite } from '../../scripts/docs-site.js';
import { projectRoot } from '../helpers/processes.js';

// The README is the front door (at most 150 lines); docs/ is a space in GitBook's Git Sync layout
// that `npm run docs` publishes with Quire and exports; no link in either leads nowhere.
const test = suite('docs: a short README, and docs/ a site Quire builds');
const scratch = mkdtempSync(path.join(tmpdir(), 'quire-docs-check-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

const docs = path.join(projectRoot, 'docs');
const markdownFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(path.join(dir, entry.name)) : entry.name.endsWith('.md') ? [path.join(dir, entry.name)] : []));
/** The pages SUMMARY.md lists, as paths under docs/. */
const summaryEntries = () => [...readFileSync(path.join(docs, 'SUMMARY.md'), 'utf8').matchAll(/^\s*\* \[[^\]]+\]\(([^)]+)\)/gm)].map((match) => match[1]!);

test('the README is at most 150 lines', () => {
  const lines = readFileSync(path.join(projectRoot, 'README.md'), 'utf8').split('\n').length - 1;
  assert.ok(lines <= 150, `README.md has ${lines} lines`);
});

test('SUMMARY.md lists every page of docs/, each once', () => {
  const pages = markdownFiles(docs)
    .map((file) => path.relative(docs, file))
    .filter((file) => file !== 'SUMMARY.md')
    .sort();
  const entries = summaryEntries();
  assert.equal([...entries].sort(), pages);
  assert.is(new Set(entries).size, entries.length);
});

test('every relative link of the README and of docs/ leads to a file of the checkout', () => {
  const broken: string[] = [];
  for (const file of [path.join(projectRoot, 'README.md'), ...markdownFiles(docs)]) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:|^#/.test(target!)) continue;
      const resolved = path.resolve(path.dirname(file), target!.split('#')[0]!);
      if (!existsSync(resolved)) broken.push(`${path.relative(projectRoot, file)}: ${target}`);
    }
  }
  assert.equal(broken, []);
});

test('npm run docs publishes docs/ with Quire and exports every page of SUMMARY.md', async () => {
  const outDir = path.join(scratch, 'site');
  const built = await buildDocsSite(outDir);
  const entries = summaryEntries();
  assert.is(built.pages, entries.length);
  for (const entry of entries) {
    const page = entry === 'README.md' ? 'index.html' : `${entry.replace(/\.md$/, '')}/index.html`;
    assert.ok(existsSync(path.join(outDir, page)), `${entry} exported as ${page}`);
  }
  const architecture = readFileSync(path.join(outDir, 'architecture/index.html'), 'utf8');
  assert.match(architecture, /<h1[^>]*>Architecture<\/h1>/);
  assert.match(architecture, /href="\.\.\/git\/"|href="\.\.\/git\/index\.html"/, 'links between pages made relative');
  // A second build empties the folder the first wrote; a folder it did not write is refused.
  assert.is((await buildDocsSite(outDir)).pages, entries.length);
  const refused = await buildDocsSite(scratch).then(
    () => '',
    (error: Error) => error.message,
  );
  assert.match(refused, /holds files npm run docs did not write/);
});

test.run();
