// The heaviest functions of V8 CPU profiles (.cpuprofile files, e.g. from QUIRE_BENCH_CPU_PROFILE):
// self time and total time (the function and what it called), each as a share of the samples.
// Usage: node scripts/profile-top.mjs <file or folder> [count] [filter]   (filter: part of a file path)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const [target, count = '25', filter] = process.argv.slice(2);
if (!target) {
  console.error('usage: node scripts/profile-top.mjs <file.cpuprofile or folder> [count] [path filter]');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => path.join(target, name))
  : [target];

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const frameName = ({ callFrame: f }) =>
    `${f.functionName || '(anonymous)'} ${
      f.url
        ? `${f.url
            .replace(/^file:\/\//, '')
            .split('/node_modules/')
            .pop()}:${f.lineNumber + 1}`
        : ''
    }`.trim();
  const self = new Map();
  const total = new Map();
  for (const [id, n] of hits) {
    const name = frameName(nodes.get(id));
    self.set(name, (self.get(name) ?? 0) + n);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = frameName(nodes.get(at));
      if (seen.has(frame)) continue; // recursion counted once
      seen.add(frame);
      total.set(frame, (total.get(frame) ?? 0) + n);
    }
  }
  const samples = profile.samples.length;
  const busy = samples - (self.get('(idle)') ?? 0);
  const pct = (n) => `${((100 * n) / samples).toFixed(1)}%`.padStart(6);
  console.log(`\n${file}: ${samples} samples, ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, ${pct(busy).trim()} not idle`);
  const show = (title, table) => {
    console.log(`  ${title}`);
    [...table]
      .filter(([name]) => !filter || name.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(count))
      .forEach(([name, n]) => console.log(`  ${pct(n)}  ${name}`));
  };
  show('self', self);
  show('total', total);
}
