import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer';
import { integrations } from '../common/integrations.js';
import { log } from '../common/log.js';

let browser: Promise<Browser> | undefined;

/** Debian's Chromium, or the one PUPPETEER_EXECUTABLE_PATH names: Quire never downloads a browser. */
export const chromiumPath = () => integrations().chromium;

/**
 * The process's one browser, launched on first use and reused; a browser that crashed or was
 * closed is launched again on the next call.
 *
 * Its profile folder (about 6.5 MB) is Quire's, removed when the browser closes or crashes and when
 * the process exits however it exits (the browser killed first): puppeteer's own removes itself
 * only once its Chromium has exited while this process still runs, so every process that had
 * exported a PDF and then exited left one in the temporary directory.
 */
export function sharedBrowser(): Promise<Browser> {
  if (browser) return browser;
  const profile = mkdtempSync(path.join(tmpdir(), 'quire-pdf-browser-'));
  let chromium: ChildProcess | null = null;
  // Killed before its folder goes: it would otherwise write into it while it is removed.
  const atExit = () => {
    chromium?.kill('SIGKILL');
    removeProfile();
  };
  process.once('exit', atExit);
  // Retried: a Chromium just killed may still be closing files in it.
  const removeProfile = () => {
    process.off('exit', atExit);
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch (error) {
      log.warn('the PDF browser profile folder could not be removed', { folder: profile, error: String(error) });
    }
  };
  // Puppeteer is loaded on first use: the API and workers that never export a PDF don't pay for it.
  const launching: Promise<Browser> = import('puppeteer')
    .then(({ default: puppeteer }) =>
      puppeteer.launch({
        executablePath: chromiumPath(),
        headless: true,
        userDataDir: profile,
        // DevTools over a pipe, not a socket: when this process dies, even killed, the pipe closes
        // and Chromium quits instead of living on as an orphan.
        pipe: true,
        // Quire runs as root in containers, where Chromium's sandbox can't start; the page it renders
        // is the server's own sanitized HTML with JavaScript off and the network closed.
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-extensions'],
      }),
    )
    .then((launched) => {
      // Once its process has exited, not when its pipe closes: it may still be writing then.
      chromium = launched.process();
      chromium?.once('exit', removeProfile);
      launched.once('disconnected', () => {
        if (!chromium) removeProfile();
        if (browser !== launching) return; // closed on purpose (closeSharedBrowser)
        log.warn('the PDF browser went away; the next export launches another');
        browser = undefined;
      });
      return launched;
    })
    .catch((error) => {
      removeProfile();
      if (browser === launching) browser = undefined;
      throw error;
    });
  browser = launching;
  return launching;
}

/** Closes the browser if one runs (a process stopping), and removes its profile folder. */
export async function closeSharedBrowser(): Promise<void> {
  const running = browser;
  browser = undefined;
  if (running) await (await running.catch(() => undefined))?.close().catch(() => undefined);
}
