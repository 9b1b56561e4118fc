import { createHash } from 'node:crypto';

/**
 * The sites' one script, deferred and optional (every page reads and navigates without it):
 * - code blocks get a copy button;
 * - tabs (a `<details>` each without script) become an ARIA tablist: arrows, Home and End move
 *   between tabs, and the tab chosen is chosen in every group with a tab of that title, on later
 *   pages too (kept in `localStorage`);
 * - the theme chosen with the toggle is kept for later pages;
 * - the outline marks the section being read;
 * - `/`, Ctrl-K, or typing in the header's search box opens a search dialog showing results as
 *   the visitor types (from `~search.json`, where the form says `data-live`): each page with its
 *   best sections, the words marked; arrows move through them, Enter follows one, Esc closes.
 * Everything is built with DOM calls and `textContent`, never as HTML. A page read and a live
 * result followed are reported to `~insights` (no cookie, nothing about the reader; not at all
 * under Do Not Track or Global Privacy Control: docs/insights.md).
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
  const kept = (key, value) => { try { if (value === undefined) return JSON.parse(localStorage.getItem(key)); localStorage.setItem(key, JSON.stringify(value)); } catch { return null; } };
  const groups = [];
  const choose = (title) => { for (const group of groups) group.pick(title); };
  document.querySelectorAll('.tabs').forEach((group, n) => {
    const tabs = [...group.children].filter((child) => child.matches('details.tab'));
    if (!tabs.length) return;
    const list = document.createElement('div');
    list.setAttribute('role', 'tablist');
    const buttons = [], panels = [], titles = [];
    tabs.forEach((tab, i) => {
      const summary = tab.querySelector(':scope > summary');
      const button = document.createElement('button');
      const panel = document.createElement('div');
      button.type = 'button';
      button.id = 'tab-' + n + '-' + i;
      button.setAttribute('role', 'tab');
      button.setAttribute('aria-controls', (panel.id = 'tabpanel-' + n + '-' + i));
      button.textContent = titles[i] = summary ? summary.textContent : 'Tab ' + (i + 1);
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', button.id);
      panel.tabIndex = 0;
      if (summary) summary.remove();
      panel.append(...tab.childNodes);
      buttons.push(button);
      panels.push(panel);
    });
    list.append(...buttons);
    group.replaceChildren(list, ...panels);
    group.classList.add('tabs-ready');
    const select = (i) => buttons.forEach((button, j) => {
      button.setAttribute('aria-selected', String(i === j));
      button.tabIndex = i === j ? 0 : -1;
      panels[j].hidden = i !== j;
    });
    groups.push({ pick: (title) => titles.includes(title) && select(titles.indexOf(title)) });
    const remembered = (kept('quire-tabs') || []).find((title) => titles.includes(title));
    select(remembered ? titles.indexOf(remembered) : 0);
    list.addEventListener('click', (event) => {
      const i = buttons.indexOf(event.target.closest('[role=tab]'));
      if (i < 0) return;
      const top = buttons[i].getBoundingClientRect().top;
      choose(titles[i]);
      select(i);
      kept('quire-tabs', [titles[i], ...(kept('quire-tabs') || []).filter((title) => title !== titles[i])].slice(0, 20));
      // The group clicked stays where it was, whatever the others' panels did above it.
      window.scrollBy(0, buttons[i].getBoundingClientRect().top - top);
    });
    list.addEventListener('keydown', (event) => {
      const i = buttons.indexOf(document.activeElement);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: buttons.length - 1 }[event.key];
      if (i < 0 || to === undefined) return;
      event.preventDefault();
      const next = (to + buttons.length) % buttons.length;
      buttons[next].focus();
      buttons[next].click();
    });
  });
  const theme = document.getElementById('theme-switch');
  if (theme) {
    const dark = matchMedia('(prefers-color-scheme: dark)');
    const saved = kept('quire-theme');
    if (saved === 'dark' || saved === 'light') theme.checked = (saved === 'dark') !== dark.matches;
    theme.addEventListener('change', () => kept('quire-theme', theme.checked !== dark.matches ? 'dark' : 'light'));
  }
  const links = new Map([...document.querySelectorAll('aside.outline a[href^="#"]')].map((link) => [decodeURIComponent(link.hash.slice(1)), link]));
  const headings = [...links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
  if (headings.length && 'IntersectionObserver' in window) {
    const mark = () => {
      let current = headings[0];
      for (const heading of headings) if (heading.getBoundingClientRect().top < innerHeight * 0.3) current = heading;
      for (const [id, link] of links) id === current.id ? link.setAttribute('aria-current', 'location') : link.removeAttribute('aria-current');
    };
    const watcher = new IntersectionObserver(mark, { rootMargin: '0px 0px -70% 0px' });
    headings.forEach((heading) => watcher.observe(heading));
    mark();
  }
})();
(() => {
  const form = document.querySelector('header form[role=search]');
  const input = form && form.querySelector('input[name=q]');
  if (!input) return;
  // Without a server to ask (a static export) or a dialog element, the shortcuts go to the header's box.
  const live = form.hasAttribute('data-live') && typeof HTMLDialogElement === 'function';
  const dialog = live ? document.createElement('dialog') : null;
  const field = live ? document.createElement('input') : input;
  document.addEventListener('keydown', (event) => {
    const typing = event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable]');
    if ((event.key === '/' && !typing) || (event.key === 'k' && (event.ctrlKey || event.metaKey))) {
      event.preventDefault();
      if (dialog) open();
      else { input.focus(); input.select(); }
    }
  });
  if (!dialog) return;
  dialog.className = 'search-dialog';
  dialog.setAttribute('aria-label', 'Search the site');
  const search = document.createElement('form');
  search.method = 'get';
  search.action = form.action;
  search.setAttribute('role', 'search');
  field.type = 'search';
  field.name = 'q';
  field.placeholder = 'Search the docs';
  field.autocomplete = 'off';
  field.setAttribute('aria-label', 'Search the site');
  search.append(field);
  const box = document.createElement('div');
  box.className = 'live-results';
  box.setAttribute('aria-live', 'polite');
  const keys = document.createElement('p');
  keys.className = 'keys';
  keys.textContent = '↑ ↓ to move · Enter to open · Esc to close';
  dialog.append(search, box, keys);
  document.body.append(dialog);
  let timer, asked = 0;
  function open() {
    if (!dialog.open) { field.value = input.value; dialog.showModal(); if (field.value.trim()) field.dispatchEvent(new Event('input')); }
    field.focus();
  }
  // Typing in the header's box, or clicking it, continues in the dialog.
  input.addEventListener('input', open);
  input.addEventListener('click', open);
  dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close(); });
  // The close event comes a task later: a dialog opened again by then keeps its own value.
  dialog.addEventListener('close', () => { if (!dialog.open) input.value = field.value; });
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const results = [...box.querySelectorAll('a')];
    if (!results.length) return;
    event.preventDefault();
    const at = results.indexOf(document.activeElement);
    const to = event.key === 'ArrowDown' ? Math.min(at + 1, results.length - 1) : at - 1;
    (to < 0 ? field : results[to]).focus();
  });
  field.addEventListener('input', () => {
    clearTimeout(timer);
    const query = field.value.trim();
    if (!query) return box.replaceChildren();
    timer = setTimeout(async () => {
      const mine = ++asked;
      const response = await fetch(form.action + '.json?q=' + encodeURIComponent(query), { credentials: 'same-origin' }).catch(() => null);
      const found = response && response.ok ? await response.json() : [];
      if (mine !== asked) return;
      const list = document.createElement('ul');
      const words = query.toLowerCase().split(' ').filter(Boolean);
      // The query's words marked where they start in the text, found without a pattern.
      const marked = (text) => {
        const out = document.createElement('span');
        const lower = text.toLowerCase();
        let at = 0;
        while (at < text.length) {
          let next = -1, word = '';
          for (const candidate of words) {
            const found = lower.indexOf(candidate, at);
            if (found >= 0 && (next < 0 || found < next)) { next = found; word = candidate; }
          }
          if (next < 0) break;
          out.append(text.slice(at, next));
          const mark = document.createElement('mark');
          mark.textContent = text.slice(next, next + word.length);
          out.append(mark);
          at = next + word.length;
        }
        out.append(text.slice(at));
        return out;
      };
      for (const hit of found) {
        const link = document.createElement('a');
        link.href = hit.url;
        link.className = 'page';
        link.append(marked(hit.title));
        const item = document.createElement('li');
        item.append(link);
        if (hit.context) {
          const context = document.createElement('span');
          context.className = 'context';
          context.textContent = hit.context;
          item.append(context);
        }
        for (const section of hit.sections || []) {
          const match = document.createElement('a');
          match.href = section.url;
          match.className = 'section';
          const title = document.createElement('strong');
          title.append(marked(section.title));
          match.append(title, marked(section.excerpt));
          item.append(match);
        }
        list.append(item);
      }
      const status = document.createElement('p');
      status.textContent = found.length ? found.length + ' found' : 'Nothing found';
      box.replaceChildren(status, list);
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
    const input = document.querySelector('.search-dialog input[name=q]');
    if (link && input) send({ type: 'search_open_result', query: input.value, href: link.getAttribute('href') });
  });
})();
`;

export const siteScriptName = `site-${createHash('sha256').update(siteScript).digest('hex').slice(0, 12)}.js`;
