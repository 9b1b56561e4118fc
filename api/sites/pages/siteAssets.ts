import { siteScript, siteScriptName } from './siteScript.js';
import { siteIcon, siteIconName, siteStylesheet, siteStylesheetName } from './siteStyles.js';

/** The files every site page names under `~assets/`, each named by its content's hash. */
export const siteAssets: ReadonlyArray<{ name: string; type: string; body: string }> = [
  { name: siteStylesheetName, type: 'text/css; charset=utf-8', body: siteStylesheet },
  { name: siteIconName, type: 'image/svg+xml', body: siteIcon },
  { name: siteScriptName, type: 'text/javascript; charset=utf-8', body: siteScript },
];
