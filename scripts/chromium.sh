#!/usr/bin/env bash
# PDF export renders with Debian's Chromium (puppeteer never downloads a browser, see .puppeteerrc.cjs).
# Installs it where it is missing; nothing to do when PUPPETEER_EXECUTABLE_PATH or /usr/bin/chromium exists.
set -euo pipefail
if [ -n "${PUPPETEER_EXECUTABLE_PATH:-}" ] && [ -x "$PUPPETEER_EXECUTABLE_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "chromium: installing Debian's chromium for PDF export (apt-get)…" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
