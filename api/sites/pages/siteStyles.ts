import { createHash } from 'node:crypto';

// The whole stylesheet of a published site: one file, cached for good under its hash. Colours
// are variables the page sets from the site's customization. The theme toggle is a checkbox
// (`#theme-switch`) that flips whichever scheme the system prefers: it works without script.
// Code tokens: keywords, strings, numbers and names, titles, comments (each 4.5:1 on the code background).
const light = '--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d8dee4;--soft:#f6f8fa;--accent:var(--primary-light);--k:#cf222e;--s:#0a3069;--n:#0550ae;--t:#6639ba;--c:#57606a';
/** Each hint style's colours, from the theme's set (colors.ts: `-l` light, `-d` dark). */
const hintColors = (suffix: 'l' | 'd') =>
  ['info', 'success', 'warning', 'danger']
    .map((style) => `--${style}:var(--${style}-${suffix});--${style}-tint:var(--${style}-tint-${suffix});--${style}-label:var(--${style}-label-${suffix})`)
    .join(';');
const dark = '--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--soft:#161b22;--accent:var(--primary-dark);--k:#ff7b72;--s:#a5d6ff;--n:#79c0ff;--t:#d2a8ff;--c:#8b949e';

export const siteStylesheet = `
:root{${light};${hintColors('l')};color-scheme:light}
@media (prefers-color-scheme:dark){:root{${dark};${hintColors('d')};color-scheme:dark}}
:root:has(#theme-switch:checked){${dark};${hintColors('d')};color-scheme:dark}
@media (prefers-color-scheme:dark){:root:has(#theme-switch:checked){${light};${hintColors('l')};color-scheme:light}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 var(--font-body,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif)}
h1,h2,h3,h4{font-family:var(--font-heading,inherit)}
a{color:var(--accent)}
code,pre{font-family:var(--font-mono,ui-monospace,SFMono-Regular,Menlo,Consolas,monospace);font-size:.9em}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem;z-index:2}
.theme-input{position:absolute;opacity:0;width:1px;height:1px}
.theme-label{cursor:pointer;border:1px solid var(--line);border-radius:6px;padding:.2rem .6rem;color:var(--fg);white-space:nowrap}
.theme-input:focus-visible+.theme-label{outline:2px solid var(--accent)}
header.site{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
header.site .title{font-weight:700;font-size:1.15rem;color:var(--fg);text-decoration:none;display:flex;gap:.5rem;align-items:center}
header.site .title img{height:28px;width:auto}
header.site nav.links{display:flex;gap:1rem;flex-wrap:wrap}
header.site a.ask{border:1px solid var(--line);border-radius:6px;padding:.2rem .6rem;text-decoration:none}
section.answer figure.quote{margin:1.25rem 0}section.answer figure.quote blockquote{margin:0;color:var(--fg)}section.answer figcaption{margin:.35rem 0 0 1.25rem;font-size:.95rem}
header.site form{margin-left:auto;display:flex;gap:.4rem}
input[type=search],form.ask input{font:inherit;padding:.3rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);min-width:12rem}
form.ask{display:flex;gap:.4rem;margin:1rem 0}form.ask input{flex:1}
button{font:inherit;padding:.3rem .8rem;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);cursor:pointer}
.search-dialog{width:min(40rem,calc(100vw - 2rem));max-height:min(40rem,calc(100vh - 4rem));margin:4rem auto auto;padding:0;border:1px solid var(--line);border-radius:10px;background:var(--bg);color:var(--fg);box-shadow:0 10px 40px rgba(0,0,0,.25);overflow:hidden}.search-dialog[open]{display:flex;flex-direction:column}.search-dialog::backdrop{background:rgba(0,0,0,.45)}.search-dialog form{padding:.75rem;border-bottom:1px solid var(--line)}.search-dialog input{width:100%;min-width:0;font-size:1.05rem;padding:.5rem .75rem}.search-dialog .keys{margin:0;padding:.4rem .9rem;border-top:1px solid var(--line);color:var(--muted);font-size:.8rem}
.live-results{overflow:auto;padding:.25rem 1rem;flex:1}
.live-results ul{list-style:none;padding:0;margin:0}.live-results li{margin:.5rem 0;padding-bottom:.5rem;border-bottom:1px solid var(--line)}.live-results li:last-child{border-bottom:0}.live-results a.page{font-weight:600}.live-results .context{display:block;color:var(--muted);font-size:.8rem}.live-results a.section{display:block;margin:.3rem 0 0 .75rem;color:var(--fg);text-decoration:none;font-size:.88rem}.live-results a.section strong{display:block;color:var(--accent);font-weight:600}.live-results a:focus-visible,.live-results a:hover{background:var(--soft)}.live-results mark{background:color-mix(in srgb,var(--accent) 22%,transparent);color:inherit;border-radius:2px}.live-results p{margin:0;color:var(--muted);font-size:.85rem}
header.site{position:relative}
.banner{padding:.5rem 1.5rem;background:var(--soft);border-bottom:1px solid var(--line)}
nav.sections{display:flex;gap:1.25rem;padding:0 1.5rem;border-bottom:1px solid var(--line);overflow-x:auto}
nav.sections a{padding:.6rem 0;text-decoration:none;color:var(--muted);white-space:nowrap}
nav.sections a[aria-current]{color:var(--fg);border-bottom:2px solid var(--accent)}
.layout{display:grid;grid-template-columns:17rem minmax(0,1fr) 14rem;gap:2rem;max-width:90rem;margin:0 auto;padding:0 1.5rem}
nav.toc{padding:1.5rem 0;font-size:.93rem}
nav.toc ul{list-style:none;margin:0;padding-left:.9rem}nav.toc>ul{padding:0}
nav.toc li{margin:.15rem 0}
nav.toc a{color:var(--muted);text-decoration:none;display:block;padding:.15rem .4rem;border-radius:4px}
nav.toc a[aria-current]{color:var(--fg);background:var(--soft);font-weight:600}
nav.toc .group{font-weight:600;margin-top:1rem;color:var(--fg);display:block}
nav.toc summary{cursor:pointer;color:var(--muted);padding:.15rem .4rem}
nav.toc li.parent{position:relative}nav.toc li.parent>a{padding-right:2rem}nav.toc li.parent>details>summary{position:absolute;right:0;top:0;width:1.8rem;padding:.15rem 0;text-align:center;list-style:none;border-radius:4px}nav.toc li.parent>details>summary::-webkit-details-marker{display:none}nav.toc li.parent>details>summary::before{content:"▸"/""}nav.toc li.parent>details[open]>summary::before{content:"▾"/""}nav.toc li.parent>details>summary:hover{background:var(--soft)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.variants summary{cursor:pointer;border:1px solid var(--line);border-radius:6px;padding:.3rem .6rem;margin-bottom:1rem}
.variants ul{list-style:none;padding:0}
main{padding:1.5rem 0 3rem;min-width:0;max-width:48rem}main>p,main>ul,main>ol,main>blockquote,.description{max-width:66ch}
main h1{font-size:2rem;line-height:1.25;margin:.5rem 0}
.description{color:var(--muted);font-size:1.1rem}
.breadcrumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem;padding:0;margin:0;color:var(--muted);font-size:.9rem}
.breadcrumbs li+li::before{content:"/";margin-right:.4rem}
h2,h3,h4{line-height:1.3;margin-top:2rem}
a.anchor{color:inherit;text-decoration:none}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:1rem;overflow-x:auto}
.hljs-keyword,.hljs-meta .hljs-keyword,.hljs-doctag,.hljs-template-tag,.hljs-type{color:var(--k)}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string{color:var(--s)}
.hljs-number,.hljs-literal,.hljs-built_in,.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-property,.hljs-symbol,.hljs-selector-class,.hljs-selector-id{color:var(--n)}
.hljs-title,.hljs-section,.hljs-name,.hljs-selector-tag{color:var(--t)}
.hljs-comment,.hljs-quote,.hljs-meta{color:var(--c)}
:not(pre)>code{background:var(--soft);padding:.1rem .3rem;border-radius:4px}
figure{margin:1.5rem 0}figure.code{position:relative}.copy{position:absolute;right:.5rem;top:.5rem;font-size:.8rem;padding:.1rem .5rem}figure.code figcaption{font:.85rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted);background:var(--soft);border:1px solid var(--line);border-bottom:0;border-radius:6px 6px 0 0;padding:.45rem 5rem .45rem 1rem}figure.code.titled pre{margin-top:0;border-top-left-radius:0;border-top-right-radius:0}figure.code.titled .copy{top:.25rem}
pre.numbered{display:flex;gap:1rem}pre.numbered .gutter{white-space:pre;text-align:right;font-size:.9em;color:var(--c);user-select:none;border-right:1px solid var(--line);padding-right:.75rem}pre.numbered code{flex:1}
img{max-width:100%;height:auto}
.table{overflow-x:auto}table{border-collapse:collapse;width:100%}th,td{border:1px solid var(--line);padding:.4rem .7rem;text-align:left;vertical-align:top}th{background:var(--soft)}
blockquote{margin:1rem 0;padding:0 1rem;border-left:4px solid var(--line);color:var(--muted)}
.hint{--hint:var(--info);--hint-bg:var(--info-tint);--hint-label:var(--info-label);border-left:4px solid var(--hint);background:var(--hint-bg);padding:.6rem 1rem;border-radius:6px;margin:1.25rem 0}
.hint-success{--hint:var(--success);--hint-bg:var(--success-tint);--hint-label:var(--success-label)}.hint-warning{--hint:var(--warning);--hint-bg:var(--warning-tint);--hint-label:var(--warning-label)}.hint-danger{--hint:var(--danger);--hint-bg:var(--danger-tint);--hint-label:var(--danger-label)}
.hint-label{display:flex;align-items:center;gap:.4rem;margin:0 0 .25rem;font-weight:700;color:var(--hint-label)}.hint-label svg{width:1.1em;height:1.1em;flex:none}.hint>:nth-child(2){margin-top:0}.hint>:last-child{margin-bottom:0}
.tabs details{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;padding:0 1rem}.tabs summary{cursor:pointer;font-weight:600;padding:.5rem 0}
.tabs-ready{border:1px solid var(--line);border-radius:8px;margin:1rem 0}.tabs [role=tablist]{display:flex;gap:.25rem;border-bottom:1px solid var(--line);padding:0 .5rem;overflow-x:auto}.tabs [role=tab]{border:0;border-bottom:2px solid transparent;border-radius:0;background:none;padding:.55rem .75rem;color:var(--muted);font-weight:600;margin-bottom:-1px;white-space:nowrap}.tabs [role=tab]:hover{color:var(--fg)}.tabs [role=tab][aria-selected=true]{color:var(--fg);border-bottom-color:var(--accent)}.tabs [role=tab]:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}.tabs [role=tabpanel]{padding:.1rem 1rem}.tabs [role=tabpanel]:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}
.card a{display:block;border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;text-decoration:none;overflow-wrap:anywhere}
ul.tasks{list-style:none;padding-left:1rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem;margin:1.5rem 0}.cards-large{grid-template-columns:repeat(auto-fill,minmax(20rem,1fr))}
.cards-card{display:block;border:1px solid var(--line);border-radius:6px;overflow:hidden;color:var(--fg);text-decoration:none}a.cards-card:hover,a.cards-card:focus-visible{border-color:var(--accent)}.cards-card img{display:block;width:100%;aspect-ratio:16/9;object-fit:cover}.card-body{padding:.75rem 1rem}
.stepper{list-style:none;counter-reset:step;padding-left:0}.stepper>li{counter-increment:step;position:relative;padding-left:2.75rem;margin:1rem 0}.stepper>li::before{content:counter(step);position:absolute;left:0;top:0;width:1.9rem;height:1.9rem;border-radius:50%;background:var(--soft);border:1px solid var(--line);text-align:center;line-height:1.9rem;font-weight:600}.stepper>li>:first-child{margin-top:0}
details.expandable{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:0 1rem}details.expandable summary{cursor:pointer;font-weight:600;padding:.5rem 0}
.math{overflow-x:auto;margin:1rem 0}.math-source{white-space:pre-wrap}
.openapi{border:1px solid var(--line);border-radius:6px;padding:0 1rem 1rem;margin:1.5rem 0}.openapi-endpoint code{overflow-wrap:anywhere}.method{font-weight:700;font-family:ui-monospace,monospace;padding:.1rem .4rem;border-radius:4px;background:var(--soft)}.required{color:var(--k);font-size:.85em}.schema{font-size:.93rem}.schema .type{color:var(--muted)}.openapi-response summary{cursor:pointer}caption{text-align:left;font-weight:600;padding:.5rem 0}
.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem}
.pagination a{text-decoration:none;display:flex;flex-direction:column;gap:.15rem;border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;flex:0 1 48%;color:var(--fg)}.pagination a:hover,.pagination a:focus-visible{border-color:var(--accent)}.pagination .direction{font-size:.85rem;color:var(--muted)}.pagination .target{color:var(--accent);font-weight:600}.pagination .next{margin-left:auto;text-align:right}
.updated{color:var(--muted);font-size:.85rem;margin-top:2rem}
aside.outline{padding:1.5rem 0;font-size:.9rem}aside.outline ul{list-style:none;padding:0}aside.outline .l2{padding-left:.8rem}aside.outline .l3{padding-left:1.6rem}
aside.outline a{color:var(--muted);text-decoration:none;display:block;border-left:2px solid transparent;padding-left:.5rem;margin-left:-.5rem}aside.outline a[aria-current]{color:var(--fg);border-left-color:var(--accent)}
.outline-compact{display:none;border:1px solid var(--line);border-radius:6px;padding:0 1rem;margin:0 0 1rem;font-size:.93rem}.outline-compact summary{cursor:pointer;padding:.5rem 0;font-weight:600}.outline-compact ul{list-style:none;padding:0 0 .5rem}.outline-compact .l2{padding-left:.8rem}.outline-compact .l3{padding-left:1.6rem}.outline-compact a{color:var(--muted);text-decoration:none}
.menu-input{position:absolute;opacity:0;width:1px;height:1px}.menu-label{display:none;cursor:pointer;border:1px solid var(--line);border-radius:6px;padding:.2rem .6rem}.menu-input:focus-visible+.menu-label{outline:2px solid var(--accent)}
@media (min-width:48.01rem){nav.toc,aside.outline{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto}}
aside.outline h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;margin:0 0 .5rem}
.results{list-style:none;padding:0}.results li{margin:1.25rem 0}.results p{margin:.2rem 0;color:var(--muted)}
footer.site{border-top:1px solid var(--line);padding:1.5rem;color:var(--muted);font-size:.9rem;display:flex;flex-wrap:wrap;gap:2rem}
footer.site ul{list-style:none;padding:0;margin:.3rem 0}
@media (max-width:70rem){.layout{grid-template-columns:15rem minmax(0,1fr)}aside.outline{display:none}.outline-compact{display:block}}
@media (max-width:48rem){.layout{display:block}nav.toc{display:none;border-bottom:1px solid var(--line)}:root:has(#menu-switch:checked) nav.toc{display:block}.menu-label{display:inline-block}header.site{gap:.5rem .5rem;padding:.6rem 1rem}header.site .title{flex:1 1 0;min-width:0;overflow-wrap:anywhere}header.site form{margin-left:0;width:100%;order:5}input[type=search]{flex:1;min-width:0}main{padding-top:1rem}main h1{font-size:1.6rem}}
@media print{nav.toc,aside.outline,header.site form,.menu-label,.theme-label,.copy,.pagination{display:none}.layout{display:block}.tabs [role=tabpanel][hidden]{display:block}}
`.replace(/\n/g, '');

/** The stylesheet's file name: it changes whenever its content does, so browsers may keep it for good. */
export const siteStylesheetName = `site-${createHash('sha256').update(siteStylesheet).digest('hex').slice(0, 12)}.css`;

/** The icon of a site that has none of its own: a plain page, so browsers don't ask the host for `/favicon.ico`. */
export const siteIcon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="2" width="22" height="28" rx="3" fill="#346DDB"/><path d="M10 10h12M10 16h12M10 22h8" stroke="#fff" stroke-width="2"/></svg>';
export const siteIconName = `icon-${createHash('sha256').update(siteIcon).digest('hex').slice(0, 12)}.svg`;
