#!/usr/bin/env bash
# The test suite also runs on PostgreSQL, in a throwaway cluster it starts itself (scripts/postgresCluster.ts).
# Installs Debian's postgresql where no server binaries are found; nothing to do when QUIRE_POSTGRES_BIN or
# /usr/lib/postgresql/<version>/bin/initdb exists.
set -euo pipefail
if [ -n "${QUIRE_POSTGRES_BIN:-}" ] && [ -x "$QUIRE_POSTGRES_BIN/initdb" ]; then exit 0; fi
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then exit 0; fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "postgresql: installing Debian's postgresql for the PostgreSQL test run (apt-get)…" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
