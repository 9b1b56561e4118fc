import { createHash } from 'node:crypto';

/** The app's one stylesheet: system fonts, light and dark from the system's scheme; served by its hash, cached for a year. */
export const appStyles = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--soft:#f6f8fa;--line:#d1d9e0;--accent:#0969da;--button:#0969da;--danger:#cf222e;--info:#0969da;--success:#1a7f37;--warning:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--soft:#151b23;--line:#3d444d;--accent:#4493f8;--button:#1f6feb;--danger:#f85149;--info:#4493f8;--success:#3fb950;--warning:#d29922}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}
header.bar{display:flex;align-items:center;gap:1rem;padding:.6rem 1.25rem;border-bottom:1px solid var(--line)}header.bar .home{font-weight:700;text-decoration:none;color:var(--fg)}header.bar .who{margin-left:auto;color:var(--muted);font-size:.9rem}
header.bar form{margin:0}
button{font:inherit;padding:.35rem .9rem;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);cursor:pointer}button.primary{background:var(--button);border-color:var(--button);color:#fff}
main{max-width:72rem;margin:0 auto;padding:1.5rem 1.25rem}.layout{display:grid;grid-template-columns:16rem minmax(0,1fr);gap:2rem}
@media (max-width:48rem){.layout{grid-template-columns:minmax(0,1fr)}header.bar{flex-wrap:wrap}}
nav.tree ul{list-style:none;padding-left:.9rem;margin:0}nav.tree>ul{padding-left:0}nav.tree li{margin:.15rem 0}nav.tree a{text-decoration:none;color:var(--fg)}nav.tree a[aria-current=page]{color:var(--accent);font-weight:600}nav.tree .group{color:var(--muted);font-size:.85rem;text-transform:uppercase;letter-spacing:.03em;margin-top:.6rem}
.breadcrumbs{color:var(--muted);font-size:.9rem}.muted{color:var(--muted)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1rem;padding:0;list-style:none}.cards li{border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem}
.sign-in{max-width:24rem;margin:4rem auto}.sign-in label{display:block;margin:.8rem 0 .25rem;font-weight:600}.sign-in input{width:100%;font:inherit;padding:.45rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}.sign-in button{margin-top:1.2rem;width:100%}.sign-in .providers{list-style:none;padding:0;margin:1.2rem 0 0;border-top:1px solid var(--line)}.sign-in .providers li{margin-top:.8rem}a.button{display:block;text-align:center;padding:.45rem .9rem;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);text-decoration:none}a.button:hover{border-color:var(--accent)}a.button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
input:not([type=hidden]){font:inherit;padding:.35rem .55rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);max-width:100%}section form{margin:.6rem 0}textarea{display:block;width:100%;font:inherit;padding:.45rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);margin:.3rem 0 .6rem}.comment{border:1px solid var(--line);border-radius:8px;padding:.2rem 1rem;margin:.8rem 0}.comment>p.muted{font-size:.9rem}pre.message{white-space:pre-wrap;background:var(--soft);padding:.6rem .8rem;border-radius:6px}.tree-list{list-style:none;padding-left:1rem}main>section>.tree-list,main>.tree-list{padding-left:0}.tree-list li{margin:.3rem 0}.tree-list a.collection{font-weight:600}.table-scroll{overflow-x:auto;max-width:100%}.notice{border-left:4px solid var(--success);background:var(--soft);padding:.5rem .9rem;border-radius:4px}.problem{border-left:4px solid var(--danger);background:var(--soft);padding:.5rem .9rem;border-radius:4px}
.clone{font-family:ui-monospace,monospace;background:var(--soft);padding:.4rem .6rem;border-radius:6px;overflow-wrap:anywhere}
article pre{background:var(--soft);padding:.8rem 1rem;border-radius:6px;overflow-x:auto}article code{font-family:ui-monospace,monospace;font-size:.9em}
article img{max-width:100%;height:auto}table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:.3rem .6rem}
.hint{border-left:4px solid var(--info);background:var(--soft);padding:.25rem 1rem;border-radius:4px;margin:1rem 0}.hint-success{border-color:var(--success)}.hint-warning{border-color:var(--warning)}.hint-danger{border-color:var(--danger)}
details{border:1px solid var(--line);border-radius:6px;margin:.6rem 0;padding:0 1rem}summary{cursor:pointer;font-weight:600;padding:.45rem 0}
a.anchor{color:inherit;text-decoration:none}
pre.diff{background:var(--soft);padding:.6rem 0;border-radius:6px;overflow-x:auto;font:13px/1.45 ui-monospace,monospace}pre.diff>*{display:block;padding:0 .8rem;text-decoration:none}pre.diff ins{background:color-mix(in srgb,var(--success) 18%,transparent)}pre.diff del{background:color-mix(in srgb,var(--danger) 18%,transparent)}.diff-fold{color:var(--muted)}
.tabs{display:flex;gap:1rem;margin:.5rem 0 1rem}.tabs a[aria-current=page]{font-weight:700;text-decoration:none;color:var(--fg)}.list{padding-left:1.2rem}.actions{display:flex;gap:.6rem}.actions form,.merge{margin:.8rem 0}
`;

export const appStylesName = `app-${createHash('sha256').update(appStyles).digest('base64url').slice(0, 12)}.css`;
