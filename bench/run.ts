// `npm run bench`: every benchmark the issues ask for, with the machine's load beside the figures.
import { loadavg, cpus } from 'node:os';
import { benchComments } from './comments.js';
import { benchChangeRequests } from './changeRequests.js';
import { benchContent } from './content.js';
import { benchConversations } from './conversations.js';
import { benchCrossProcess } from './crossProcess.js';
import { benchFoundation } from './foundation.js';
import { benchGit } from './git.js';
import { benchPublished } from './published.js';
import { benchJobs } from './jobs.js';
import { benchOpenAPI } from './openapi.js';
import { benchPacked } from './packed.js';
import { benchPdf } from './pdf.js';
import { benchTranslations } from './translations.js';
import { durableWriteMs, fmt } from './lib.js';
import { benchSites } from './sites.js';
import { benchSitePages } from './sitePages.js';
import { benchLighthouse } from './lighthouse.js';
import { benchSlowInput } from './slowInput.js';
import { benchScale } from './scale.js';
import { benchSoak } from './soak.js';
import { benchSearchRefresh } from './searchRefresh.js';
import { benchCache } from './cacheRoundRobin.js';
import { benchGroupCommit } from './groupCommit.js';
import { benchMove } from './move.js';
import { benchApp } from './app.js';
import { benchEditor } from './editor.js';
import { benchAccess } from './access.js';
import { benchInsights } from './insights.js';

const benches: Record<string, () => Promise<Record<string, string>>> = {
  foundation: benchFoundation,
  content: benchContent,
  jobs: benchJobs,
  packed: benchPacked,
  crossProcess: benchCrossProcess,
  comments: benchComments,
  'change-requests': benchChangeRequests,
  sites: benchSites,
  openapi: benchOpenAPI,
  conversations: benchConversations,
  translations: benchTranslations,
  pdf: benchPdf,
  'slow-input': benchSlowInput,
  git: benchGit,
  published: benchPublished,
  'site-pages': benchSitePages,
  lighthouse: benchLighthouse,
  soak: benchSoak,
  scale: benchScale,
  'search-refresh': benchSearchRefresh,
  cache: benchCache,
  'group-commit': benchGroupCommit,
  move: benchMove,
  app: benchApp,
  editor: benchEditor,
  access: benchAccess,
  insights: benchInsights,
};
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(benches);

const before = loadavg();
const diskBefore = durableWriteMs();
for (const name of chosen) {
  const bench = benches[name];
  if (!bench) throw new Error(`unknown benchmark ${name}; choose from ${Object.keys(benches).join(', ')}`);
  const figures = await bench();
  console.log(`\n## ${name}`);
  for (const [label, value] of Object.entries(figures)) console.log(`${label.padEnd(66)} ${value}`);
}
console.log(
  `\nmachine: ${cpus().length} cores; load average before ${before.map((n) => n.toFixed(2)).join(' ')}, after ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
console.log(`disk: a durable small write (new file written, synced, renamed, folder synced) ${fmt(diskBefore)} ms before, ${fmt(durableWriteMs())} ms after (median of 20)`);
process.exit(0); // the benchmarks' Temporal dev server is stopped on exit
