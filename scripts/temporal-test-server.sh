#!/usr/bin/env bash
# The Temporal test server whose clock skips forward, for the suites that test workflow timers in
# days (test/workflows/timers.test.ts, with @temporalio/testing). It is the Java SDK's test server:
# fetched once from Maven Central (about 33 MB, with its dependencies) into the same cache as the
# temporal CLI, and run with the machine's Java (17 or later). Prints the path of a launcher that
# takes the port as its argument, as @temporalio/testing expects.
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.31.0
cache="${QUIRE_TEMPORAL_CACHE_DIR:-.cache/temporal}"
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
target="$cache/test-server-$version"
if [ -x "$target/temporal-test-server" ]; then echo "$target/temporal-test-server"; exit 0; fi
apt_install() {
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "temporal test server: installing $* (apt-get)…" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
command -v java >/dev/null || apt_install default-jre-headless
command -v mvn >/dev/null || apt_install maven
echo "temporal test server: fetching io.temporal:temporal-test-server:$version from Maven Central…" >&2
work=$(mktemp -d "$cache/.test-server.XXXXXX")
trap 'rm -rf "$work"' EXIT
mvn -q -B -f scripts/temporal-test-server.pom.xml dependency:copy-dependencies -DoutputDirectory="$work/lib" >&2
cat > "$work/temporal-test-server" <<LAUNCHER
#!/bin/sh
# io.temporal.testserver.TestServer <port>
exec java -cp "$target/lib/*" io.temporal.testserver.TestServer "\$@"
LAUNCHER
chmod +x "$work/temporal-test-server"
# Renamed into place whole: two runs at once never leave half of it.
mv -T "$work" "$target" 2>/dev/null || [ -x "$target/temporal-test-server" ]
echo "$target/temporal-test-server"
