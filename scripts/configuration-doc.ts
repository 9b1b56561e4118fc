import { writeFileSync } from 'node:fs';
import { definitions, type Section } from '../config/index.js';

/**
 * Writes docs/configuration.md from config/settings.ts: every setting Quire reads, by section,
 * with what it accepts and its default (`npm run docs:configuration`; test/checks/configuration.test.ts
 * checks the file is the table's own).
 */
const sections: Record<Section, string> = {
  server: 'The server',
  storage: 'Storage',
  jobs: 'Jobs (Temporal)',
  limits: 'Limits',
  integrations: 'Integrations',
};

/** Read by the test and benchmark scripts, not by Quire. */
const testSettings: Array<[string, string, string]> = [
  ['QUIRE_TEST_TIMEOUT_MINUTES', '30', '`npm test` stops a run that takes longer (a hung suite fails instead of waiting); a run ends by naming its 10 slowest files.'],
  ['QUIRE_TEST_FILE_TIMEOUT_MINUTES', '10', 'A suite file that takes longer is stopped with every process it started, and fails.'],
  ['QUIRE_TEST_JOBS', '3', 'How many suite files `npm test` runs at once.'],
  ['QUIRE_TEST_CACHE_DIR', '.cache/test', "Where the clustering suite keeps the labelled sets' embeddings, by the model's hash."],
  [
    'QUIRE_TEST_MIXED_LOAD_SECONDS',
    '30',
    'How long `test/api/mixedLoad.test.ts` runs its 8 clients (reads, searches, comments, conversation posts, merges) before checking that nothing failed or hung.',
  ],
  ['QUIRE_TEST_DRIVERS', 'sqlite postgres', "The databases whose passes `npm test` runs (`sqlite` alone leaves PostgreSQL's out)."],
  [
    'QUIRE_POSTGRES_BIN',
    'newest `/usr/lib/postgresql/<version>/bin',
    'The PostgreSQL server binaries (`initdb`, `pg_ctl`) of the throwaway clusters `npm test`, `npm run fuzz -- --postgres`, `npm run bench scale` and `npm run bench move` start.',
  ],
];

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function configurationDoc(): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Written by `npm run docs:configuration` from config/settings.ts: edit that table, not this file. -->',
    '',
    'Quire reads its settings from environment variables once, as a process starts (`npm start`, `npm run worker`, `npm run -s admin`).',
    'A value a setting does not accept stops the start with a message naming the variable and what it accepts, every bad one at once;',
    'an empty variable is an unset one.',
  ];
  for (const [section, title] of Object.entries(sections)) {
    lines.push('', `## ${title}`, '', '| Variable | Default | Accepts | Meaning |', '|---|---|---|---|');
    for (const [name, definition] of Object.entries(definitions)) {
      if (definition.section !== section) continue;
      lines.push(`| \`${name}\` | ${definition.fallback === undefined ? 'unset' : `\`${cell(definition.fallback)}\``} | ${cell(definition.parser.accepts)} | ${cell(definition.doc)} |`);
    }
  }
  lines.push('', '## Tests and benchmarks', '', 'Read by `npm test`, `npm run test:postgres`, the fuzz run and the benchmarks, not by Quire.', '', '| Variable | Default | Meaning |', '|---|---|---|');
  for (const [name, fallback, doc] of testSettings) lines.push(`| \`${name}\` | ${fallback === 'unset' ? 'unset' : `\`${cell(fallback)}\``} | ${doc} |`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1]?.endsWith('configuration-doc.ts')) writeFileSync(new URL('../docs/configuration.md', import.meta.url), configurationDoc());
