import type { Change } from './change.js';
import { newContentId } from './internal/ids.js';
import { renderPageFile } from './layout/pageFile.js';
import { renderSummary, type SummaryGroup } from './layout/summary.js';

export interface TemplatePage {
  file: string;
  title: string;
  body: string;
  meta?: Record<string, unknown>;
  children?: TemplatePage[];
}

export interface Template {
  id: string;
  title: string;
  description: string;
  pages: TemplatePage[];
  groups?: Array<{ title: string; pages: TemplatePage[] }>;
  files?: Array<{ name: string; content: Uint8Array }>;
}

/** A 1×1 transparent PNG: the smallest real image a template can ship. */
const pixel = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));

export const templates: Template[] = [
  {
    id: 'blank',
    title: 'Blank',
    description: 'One empty page.',
    pages: [{ file: 'README.md', title: 'Untitled', body: '' }],
  },
  {
    id: 'getting-started',
    title: 'Getting started',
    description: 'A small product guide: an introduction, a quick start with a nested page, an FAQ, and an image.',
    pages: [
      {
        file: 'README.md',
        title: 'Introduction',
        meta: { description: 'What this documentation covers' },
        body: 'Welcome! Start with the [quick start](quick-start.md), or read the [FAQ](faq.md).\n\n![Logo](.gitbook/assets/logo.png)\n',
      },
      {
        file: 'quick-start.md',
        title: 'Quick start',
        body: '{% hint style="info" %}\nIt takes five minutes.\n{% endhint %}\n\n1. Install.\n2. [Configure](quick-start/configuration.md).\n3. Run.\n',
        children: [
          {
            file: 'quick-start/configuration.md',
            title: 'Configuration',
            body: 'Every setting lives in one file.\n\n```yaml\nport: 3000\n```\n\nSee also [the old setup guide](setup.md), which has moved.\n',
          },
        ],
      },
      { file: 'faq.md', title: 'FAQ', body: '## Where do I start?\n\nWith the [introduction](README.md).\n' },
    ],
    files: [{ name: 'logo.png', content: pixel }],
  },
  {
    id: 'knowledge-base',
    title: 'Knowledge base',
    description: 'A team handbook in two groups: how we work, and how-tos.',
    pages: [{ file: 'README.md', title: 'Handbook', body: 'How our team works, and how to get things done.\n' }],
    groups: [
      {
        title: 'How we work',
        pages: [
          { file: 'how-we-work/meetings.md', title: 'Meetings', body: 'We keep meetings short and write decisions down.\n' },
          { file: 'how-we-work/reviews.md', title: 'Reviews', body: 'Every change is reviewed by one teammate.\n' },
        ],
      },
      { title: 'How-tos', pages: [{ file: 'how-tos/onboarding.md', title: 'Onboarding', body: 'Your first week, day by day.\n' }] },
    ],
  },
];

export const findTemplate = (id: string) => templates.find((template) => template.id === id);

/** The files that lay a template out in the Git Sync format, each page with a new id. */
export function templateChanges(template: Template): Change[] {
  const changes: Change[] = [];
  const entries = (pages: TemplatePage[]): SummaryGroup['entries'] =>
    pages.map((page) => {
      changes.push({ path: page.file, content: renderPageFile({ meta: { pageId: newContentId(), ...page.meta }, body: `# ${page.title}\n\n${page.body}` }) });
      return { title: page.title, target: page.file, children: entries(page.children ?? []) };
    });
  const groups: SummaryGroup[] = [
    { title: null, entries: entries(template.pages) },
    ...(template.groups ?? []).map((group) => ({ title: group.title, id: newContentId(), entries: entries(group.pages) })),
  ];
  changes.push({ path: 'SUMMARY.md', content: renderSummary(groups) });
  changes.push({ path: '.gitbook.yaml', content: 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n' });
  for (const file of template.files ?? []) changes.push({ path: `.gitbook/assets/${file.name}`, content: file.content });
  return changes;
}
