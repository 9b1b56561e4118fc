// The web app's figures (issue 52): a change request page with a 20-page diff on a 1,000-page
// space, rendered on the server (target ≤ 50 ms median), and the compressed weight of its pages
// (HTML + CSS ≤ 30 KB) and of the JavaScript they run (≤ 30 KB, deferred).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { body, pageNumber, writePages } from './changeRequests.js';
import { fmt, median, quireWithOrganization, root, spread } from './lib.js';

const password = 'bench password for the app';

/** A signed-in browser's cookie and a GET that times the whole answer. */
async function signIn(base: string, email: string) {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const form = await fetch(`${base}/app/sign-in`);
  keep(form);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const signedIn = await fetch(`${base}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, cookie: cookie() },
    body: new URLSearchParams({ csrf, next: '/app/', email, password }).toString(),
  });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  keep(signedIn);
  const get = async (url: string) => {
    const started = process.hrtime.bigint();
    const response = await fetch(`${base}${url}`, { headers: { cookie: cookie() } });
    const text = await response.text();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, text };
  };
  return { get };
}

const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
const compressed = (text: string) => ({ gzip: gzipSync(text, { level: 9 }).length, brotli: brotliCompressSync(text).length });

export async function benchApp(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, organizationId, server, api } = await quireWithOrganization();
  try {
    execFileSync(process.execPath, [path.join(root, 'dist/api/cli/admin.js'), 'user', 'password', '--email', 'bench-admin@example.com'], {
      input: `${password}\n`,
      env: { ...process.env, DATA_DIR: dataDir },
    });
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: '1,000 pages', empty: true });
    await writePages(dataDir, space.id, 1000);
    const changeRequest = await api('POST', `/spaces/${space.id}/change-requests`, { subject: 'Twenty pages' });
    const pages = Array.from({ length: 20 }, (_, i) => pageNumber(i * 43));
    await api('POST', `/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: pages.map((n) => ({ operation: 'update_page', page: `p${n}`, document: { markdown: body(n, 'A sentence added to this page. ') } })),
    });
    const browser = await signIn(server.url, 'bench-admin@example.com');
    const crPath = new URL(changeRequest.urls.app).pathname;

    const timed = async (url: string) => {
      for (let i = 0; i < 10; i += 1) await browser.get(url); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < 60; i += 1) samples.push((await browser.get(url)).ms);
      return samples;
    };
    const rendered = await timed(crPath);
    // First views of other change requests (warm process, their 40 page versions never drawn): no cache helps.
    const firstViews: number[] = [];
    for (let round = 1; round <= 8; round += 1) {
      const other = await api('POST', `/spaces/${space.id}/change-requests`, { subject: `Twenty pages, round ${round}` });
      await api('POST', `/spaces/${space.id}/change-requests/${other.id}/content`, {
        changes: Array.from({ length: 20 }, (_, i) => pageNumber(i * 43 + round)).map((n) => ({
          operation: 'update_page',
          page: `p${n}`,
          document: { markdown: body(n, `Round ${round} adds this. `) },
        })),
      });
      firstViews.push((await browser.get(new URL(other.urls.app).pathname)).ms);
    }
    // After a save of one page (a new commit): that page is drawn again, the others come from the cache.
    const afterEdit: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const n = pages[round % pages.length]!;
      await api('POST', `/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        changes: [{ operation: 'update_page', page: `p${n}`, document: { markdown: body(n, `Saved again, round ${round}. `) } }],
      });
      afterEdit.push((await browser.get(crPath)).ms);
    }
    figures['change request page, 20-page rendered diff, 1,000-page space, loopback: median (min–max) ms (target ≤ 50)'] = spread(rendered);
    figures['… a change request’s first view (its 40 page versions drawn, none cached): median (min–max) ms'] = spread(firstViews);
    figures['… the view after a save of one of its pages: median (min–max) ms'] = spread(afterEdit);
    figures['… the same as a source diff (?diff=source): median (min–max) ms'] = spread(await timed(`${crPath}?diff=source`));
    figures['… the space’s page (tree of 1,000 pages and one page): median ms'] = fmt(median(await timed(`/app/s/${space.id}`)), 1);

    const styles = /href="(\/app\/assets\/app-[^"]+\.css)"/.exec((await browser.get('/app/')).text)?.[1];
    const css = (await browser.get(styles!)).text;
    const site = await api('POST', `/orgs/${organizationId}/sites`, { title: 'Bench site', spaces: [space.id] });
    const weighed: Array<[string, string]> = [
      ['home', '/app/'],
      ['change request (rendered diff)', crPath],
      ['change request (source diff)', `${crPath}?diff=source`],
      ['space (1,000-page tree)', `/app/s/${space.id}`],
      ['administration', `/app/o/${organizationId}/admin`],
      ['docs site', `/app/o/${organizationId}/sites/${site.id}`],
    ];
    let heaviest = 0;
    for (const [name, url] of weighed) {
      const html = (await browser.get(url)).text;
      const size = compressed(html + css);
      heaviest = Math.max(heaviest, size.gzip);
      figures[`${name}: HTML + CSS compressed, gzip / brotli (target ≤ 30 KB)`] = `${kb(size.gzip)} / ${kb(size.brotli)}`;
    }
    figures['heaviest app page, HTML + CSS gzip'] = kb(heaviest);
    const siteHtml = (await browser.get(`/app/o/${organizationId}/sites/${site.id}`)).text;
    const scripts = [...siteHtml.matchAll(/<script src="([^"]+)" defer nonce/g)].map((match) => match[1]!);
    const js = (await Promise.all(scripts.map(async (src) => (await browser.get(src)).text))).join('\n');
    figures['JavaScript of the heaviest page (the site’s live preview), gzip (target ≤ 30 KB, deferred)'] = `${kb(compressed(js).gzip)} in ${scripts.length} file(s)`;
    const crHtml = (await browser.get(crPath)).text;
    const reviewScripts = [...crHtml.matchAll(/<script src="([^"]+)" defer nonce/g)].map((match) => match[1]!);
    const reviewJs = (await Promise.all(reviewScripts.map(async (src) => (await browser.get(src)).text))).join('\n');
    figures['JavaScript on a review page, gzip (target ≤ 30 KB, deferred)'] = `${kb(compressed(reviewJs).gzip)} in ${reviewScripts.length} file(s)`;
  } finally {
    await server.stop();
  }
  return figures;
}
