// Spaces for the job benchmarks, made through the API of a running server: pages written into a
// change request (50 a batch, the batch limit), merged into the primary branch when asked.

export interface Api {
  url: string;
  headers: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(api: Api, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.url}/v1${path}`, { method, headers: api.headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A page of about 300 words: headings, paragraphs, a list and a code block. */
export function pageMarkdown(n: number, variant = ''): string {
  const paragraph = (i: number) =>
    `Section ${i} of chapter ${n} explains how the deployment pipeline promotes a release from staging to production${variant}. ` +
    'Operators review the change log, confirm the database migrations, and watch the health checks while traffic shifts gradually. ' +
    'When an alert fires, the rollback command restores the previous release within a minute and keeps the audit trail intact.';
  return [
    `# Chapter ${n}`,
    paragraph(1),
    '## Steps',
    '- Prepare the release notes and tag the build.\n- Run the smoke tests against staging.\n- Promote the build and monitor the dashboards.',
    paragraph(2),
    '```sh\nquire deploy --environment production --wait\n```',
    paragraph(3),
  ].join('\n\n');
}

/** Inserts `pages` pages into the change request, at the end of the content, 50 a batch. */
export async function writePages(api: Api, spaceId: string, changeRequestId: string, pages: number, first = 1): Promise<void> {
  for (let start = 0; start < pages; start += 50) {
    const changes = Array.from({ length: Math.min(50, pages - start) }, (_, i) => ({
      operation: 'insert_page',
      title: `Chapter ${first + start + i}`,
      document: { markdown: pageMarkdown(first + start + i) },
    }));
    await call(api, 'POST', `/spaces/${spaceId}/change-requests/${changeRequestId}/content`, { changes });
  }
}

/** A space whose primary branch holds `pages` pages (written in a change request, then merged). */
export async function spaceWithPages(api: Api, organizationId: string, title: string, pages: number): Promise<string> {
  const space = await call<{ id: string }>(api, 'POST', `/orgs/${organizationId}/spaces`, { title });
  const changeRequest = await call<{ id: string }>(api, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  await writePages(api, space.id, changeRequest.id, pages);
  await call(api, 'POST', `/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  return space.id;
}
