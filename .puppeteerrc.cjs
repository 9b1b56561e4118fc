// Puppeteer launches Debian's Chromium (/usr/bin/chromium, or PUPPETEER_EXECUTABLE_PATH); it must not
// download a browser of its own (npm no longer passes package config, so this file is where it reads that).
/** @type {import('puppeteer').Configuration} */
module.exports = {
  skipDownload: true,
  chrome: { skipDownload: true },
  'chrome-headless-shell': { skipDownload: true },
  firefox: { skipDownload: true },
};
