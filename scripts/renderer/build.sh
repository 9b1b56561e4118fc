#!/usr/bin/env bash
# Builds GitBook's renderer (GitbookIO/gitbook, GPL-3.0: run as a separate program) offline, to
# serve Quire's published sites: docs/renderer.md. One command, from a local checkout:
#
#   scripts/renderer/build.sh <checkout of GitbookIO/gitbook> <Quire's URL, e.g. http://quire.internal:3000>
#
# It checks out the commit below, applies offline.patch (the API client Quire answers for, type
# checks off, no font download), installs bun 1.3.7 if it is missing, and builds with the settings
# the renderer compiles in. GITBOOK_SECRET (for cache revalidation) is made when not given: start
# Quire with the same value as QUIRE_RENDERER_SECRET.
set -euo pipefail

commit=49c993f18150
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="${1:?usage: build.sh <checkout of GitbookIO/gitbook> <Quire URL>}"
api_url="${2:?usage: build.sh <checkout of GitbookIO/gitbook> <Quire URL>}"
cd "$checkout"

if git apply --reverse --check "$here/offline.patch" 2>/dev/null; then
  echo "offline.patch is applied already"
elif ! git diff --quiet HEAD; then
  echo "$checkout has changes of its own: stash or drop them first" >&2
  exit 1
else
  git -c advice.detachedHead=false checkout --quiet "$commit"
  git apply "$here/offline.patch"
fi

if [ "$(bun --version 2>/dev/null)" != 1.3.7 ]; then npm install --global bun@1.3.7; fi

if [ -z "${GITBOOK_SECRET:-}" ]; then
  GITBOOK_SECRET="$(node -e 'console.log(require("node:crypto").randomBytes(24).toString("base64url"))')"
  echo "GITBOOK_SECRET=$GITBOOK_SECRET  (start the renderer with it, and Quire with QUIRE_RENDERER_SECRET set to it)"
fi
export GITBOOK_SECRET NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 GITBOOK_SKIP_FONT_DOWNLOAD=1 \
  GITBOOK_URL=http://localhost GITBOOK_API_URL="$api_url" GITBOOK_DISABLE_TRACKING=1
bun install
bunx turbo run build --filter=gitbook
echo "Built. Start it with scripts/renderer/start.sh $checkout $api_url (GITBOOK_SECRET as above)."
