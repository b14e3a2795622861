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

# CLASH_SERVE_BIN: a clash already built (scripts/test.sh passes the one `cargo test` built, which
# a build of clash-cli alone would compile again with other features).
BIN="${CLASH_SERVE_BIN:-}"
if [ -z "$BIN" ]; then
  echo "e2e: building clash"
  (cd "$ROOT" && cargo build -j2 -p clash-cli --bin clash)
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/clash"
fi

mkdir -p artifacts
# shellcheck source=../scripts/lib/throwaway-server.sh
. "$ROOT/scripts/lib/throwaway-server.sh"
THROWAWAY_LOG="$E2E/artifacts/server.log" throwaway_server "$BIN" --examples
export CLASH_BIN="$BIN"

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
