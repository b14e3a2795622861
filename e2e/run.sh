#!/usr/bin/env bash
# Browser end-to-end tests of `clash serve`, in real headless Chromium driven by Playwright.
#
# Works on a fresh machine: installs Debian's chromium when /usr/bin/chromium is missing and the
# npm packages when node_modules is missing, builds the clash binary, starts it on a free
# loopback port with a throw-away database, runs `node --test`, and always stops the server.
# Screenshots go to e2e/artifacts/ (git-ignored), with the server's log.
#
# The tests are e2e/tests/*.test.mjs and every game crate's own, crates/*/e2e/*.test.mjs (which
# import ../../../e2e/lib.mjs); the server offers the example rulesets too (--examples).
# `e2e/run.sh FILE…` runs only the named test files.
set -euo pipefail
cd "$(dirname "$0")"
E2E="$(pwd)"
ROOT="$(cd .. && pwd)"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: installing Debian's chromium"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

if [ ! -d node_modules/playwright-core ] || [ ! -x node_modules/.bin/tsc ] || [ ! -d node_modules/axe-core ]; then
  echo "e2e: installing npm packages"
  npm ci --no-audit --no-fund || npm install --no-audit --no-fund
fi

echo "e2e: building clash"
(cd "$ROOT" && cargo build -j2 -p clash-cli --bin clash)
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET_DIR/debug/clash"

mkdir -p artifacts
TMP="$(mktemp -d)"
PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
"$BIN" serve --examples --addr "127.0.0.1:$PORT" --db "$TMP/e2e.db" >artifacts/server.log 2>&1 &
SERVER=$!
stop_server() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$TMP"
}
trap stop_server EXIT

export CLASH_URL="http://127.0.0.1:$PORT"
export CLASH_BIN="$BIN"
for _ in $(seq 1 100); do
  if node -e 'fetch(process.env.CLASH_URL + "/healthz").then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))'; then
    break
  fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "e2e: the server did not start:"; cat artifacts/server.log; exit 1
  fi
  sleep 0.2
done

echo "e2e: testing against $CLASH_URL"
shopt -s nullglob
if [ "$#" -gt 0 ]; then
  # Only the test files named (paths relative to the repository or absolute), while working on one.
  files=()
  for f in "$@"; do case "$f" in /*) files+=("$f") ;; *) files+=("$ROOT/$f") ;; esac; done
  node --test --test-concurrency=1 "${files[@]}"
else
  node --test --test-concurrency=1 "$E2E"/tests/*.test.mjs "$ROOT"/crates/*/e2e/*.test.mjs
fi
