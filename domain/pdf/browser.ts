import type { Browser } from 'puppeteer';
import { log } from '../common/log.js';

let browser: Promise<Browser> | undefined;

/** Debian's Chromium, or the one PUPPETEER_EXECUTABLE_PATH names: Quire never downloads a browser. */
export const chromiumPath = () => process.env.PUPPETEER_EXECUTABLE_PATH ?? '/usr/bin/chromium';

/**
 * The process's one browser, launched on first use and reused; a browser that crashed or was
 * closed is launched again on the next call.
 */
export function sharedBrowser(): Promise<Browser> {
  if (browser) return browser;
  // Puppeteer is loaded on first use: the API and workers that never export a PDF don't pay for it.
  const launching: Promise<Browser> = import('puppeteer')
    .then(({ default: puppeteer }) =>
      puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      // DevTools over a pipe, not a socket: when this process dies, even killed, the pipe closes
      // and Chromium quits instead of living on as an orphan.
      pipe: true,
      // Quire runs as root in containers, where Chromium's sandbox can't start; the page it renders
      // is the server's own sanitized HTML with JavaScript off and the network closed.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-extensions'],
      }),
    )
    .then((launched) => {
      launched.once('disconnected', () => {
        if (browser !== launching) return; // closed on purpose (closeSharedBrowser)
        log.warn('the PDF browser went away; the next export launches another');
        browser = undefined;
      });
      return launched;
    })
    .catch((error) => {
      if (browser === launching) browser = undefined;
      throw error;
    });
  browser = launching;
  return launching;
}

/**
 * Closes the browser if one runs (a process stopping). Puppeteer removes the browser's profile
 * folder (about 6.5 MB in the temporary directory) only on this close: a process that exits with
 * its browser open leaves one behind each time.
 */
export async function closeSharedBrowser(): Promise<void> {
  const running = browser;
  browser = undefined;
  if (running) await (await running.catch(() => undefined))?.close().catch(() => undefined);
}
