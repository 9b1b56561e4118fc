// `npm run docs:permissions`: rewrites the generated table in docs/permissions.md from the route table.
import { readFileSync, writeFileSync } from 'node:fs';
import { permissionsTable } from '../api/routes/permissionsTable.js';

const file = new URL('../docs/permissions.md', import.meta.url);
const start = '<!-- routes:start -->';
const end = '<!-- routes:end -->';
const text = readFileSync(file, 'utf8');
const before = text.slice(0, text.indexOf(start) + start.length);
const after = text.slice(text.indexOf(end));
writeFileSync(file, `${before}\n${permissionsTable()}\n${after}`);
