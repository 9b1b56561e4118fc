#!/usr/bin/env bash
# Starts a renderer built by build.sh, on localhost:3001 (or PORT), behind a TLS proxy for the
# sites' host names: docs/renderer.md. GITBOOK_SECRET must be the one it was built with.
#
#   GITBOOK_SECRET=… scripts/renderer/start.sh <checkout of GitbookIO/gitbook> <Quire's URL>
set -euo pipefail
checkout="${1:?usage: start.sh <checkout of GitbookIO/gitbook> <Quire URL>}"
api_url="${2:?usage: start.sh <checkout of GitbookIO/gitbook> <Quire URL>}"
: "${GITBOOK_SECRET:?set GITBOOK_SECRET to the value the build printed or was given}"
cd "$checkout/packages/gitbook"
# -H localhost, not 127.0.0.1: see docs/renderer.md, "Run it".
GITBOOK_URL=http://localhost GITBOOK_API_URL="$api_url" GITBOOK_DISABLE_TRACKING=1 NODE_ENV=production \
  exec node ../../node_modules/next/dist/bin/next start -H localhost -p "${PORT:-3001}"
