#!/usr/bin/env bash
# Lighthouse (mobile) on the lobby, a GM page and a seat's page of an Iron Triangle table.
#
# Installs the pinned `lighthouse` npm package here when it is missing (so it needs the npm
# registry, and is not part of the test suite), builds a release `clash`, serves it on a free
# loopback port with a throw-away SQLite file, makes the table through the API, runs Lighthouse
# RUNS times a page (default 3) in Debian's headless Chromium and prints the medians, and always
# stops the server.
#
#   bench/lighthouse/run.sh [RUNS]
#   CLASH_BIN=path/to/clash bench/lighthouse/run.sh   # measure that build instead
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"

if [ ! -x /usr/bin/chromium ] && [ -z "${CHROME_PATH:-}" ]; then
  echo "lighthouse: needs Debian's chromium (apt-get install chromium) or CHROME_PATH" >&2
  exit 1
fi
if [ ! -d "$here/node_modules/lighthouse" ]; then
  (cd "$here" && (npm ci --no-audit --no-fund || npm install --no-audit --no-fund))
fi

# CLASH_BIN: another build to measure (an older one, for a before-and-after).
bin="${CLASH_BIN:-$target/release/clash}"
if [ -z "${CLASH_BIN:-}" ]; then
  (cd "$root" && cargo build --quiet --release -j2 -p clash-cli --bin clash)
fi

# shellcheck source=../../scripts/lib/throwaway-server.sh
. "$root/scripts/lib/throwaway-server.sh"
throwaway_server "$bin"

node "$here/run.mjs" "${1:-3}"
