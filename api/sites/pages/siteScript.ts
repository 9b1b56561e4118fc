import { createHash } from 'node:crypto';

/**
 * The sites' one script, deferred and optional (every page reads and navigates without it): code
 * blocks get a copy button, and the header's search box shows results as the visitor types, from
 * `~search.json`. Results are built with DOM calls and `textContent`, never as HTML. A page read
 * and a live result followed are reported to `~insights` (no cookie, nothing about the reader;
 * not at all under Do Not Track or Global Privacy Control: docs/insights.md).
 */
export const siteScript = `(() => {
  for (const figure of document.querySelectorAll('figure.code')) {
    const code = figure.querySelector('code');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', async () => {
      await navigator.clipboard.writeText(code.textContent).then(() => (button.textContent = 'Copied'), () => (button.textContent = 'Copy failed'));
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
    figure.prepend(button);
  }
})();
(() => {
  const form = document.querySelector('header form[role=search]');
  const input = form && form.querySelector('input[name=q]');
  if (!input) return;
  const box = document.createElement('div');
  box.className = 'live-results';
  box.setAttribute('aria-live', 'polite');
  box.hidden = true;
  form.append(box);
  let timer, asked = 0;
  const close = () => { box.hidden = true; box.replaceChildren(); };
  input.addEventListener('keydown', (event) => { if (event.key === 'Escape') close(); });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (!query) return close();
    timer = setTimeout(async () => {
      const mine = ++asked;
      const response = await fetch(form.action + '.json?q=' + encodeURIComponent(query), { credentials: 'same-origin' }).catch(() => null);
      const found = response && response.ok ? await response.json() : [];
      if (mine !== asked) return;
      const list = document.createElement('ul');
      for (const hit of found) {
        const link = document.createElement('a');
        link.href = hit.url;
        link.textContent = hit.title;
        const item = document.createElement('li');
        item.append(link);
        if (hit.context) {
          const context = document.createElement('span');
          context.textContent = hit.context;
          item.append(context);
        }
        list.append(item);
      }
      const status = document.createElement('p');
      status.textContent = found.length ? found.length + ' found' : 'Nothing found';
      box.replaceChildren(status, list);
      box.hidden = false;
    }, 150);
  });
})();
(() => {
  const root = document.body;
  const to = root.dataset.insights;
  if (!to || navigator.doNotTrack === '1' || navigator.globalPrivacyControl) return;
  const send = (event) => navigator.sendBeacon(to, new Blob([JSON.stringify({ ...event, path: location.pathname })], { type: 'application/json' }));
  const referrer = document.referrer && new URL(document.referrer).origin !== location.origin ? document.referrer : '';
  if (root.dataset.page) send({ type: 'page_view', space: root.dataset.space, page: root.dataset.page, referrer });
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element && event.target.closest('.live-results a');
    const input = document.querySelector('header form[role=search] input[name=q]');
    if (link && input) send({ type: 'search_open_result', query: input.value, href: link.getAttribute('href') });
  });
})();
`;

export const siteScriptName = `site-${createHash('sha256').update(siteScript).digest('hex').slice(0, 12)}.js`;
