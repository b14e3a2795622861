#!/usr/bin/env bash
# The whole test suite: hygiene (formatting, lints, no machine paths), every crate's tests, every
# README command run as written, the API document against the server (schemathesis, and a client
# generated from the document playing a game), then the browser end-to-end tests.
# Installs what the API and browser tests need (schemathesis from PyPI into .venv/api, Debian's
# Chromium, npm packages) when it is missing.
#
# Everything runs beside a throw-away PostgreSQL cluster (scripts/with-postgres.sh, which
# installs Debian's postgresql when missing): the storage tests run against both backends, and
# the two-node test runs two `clash serve` processes on one database.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CLASH_TEST_POSTGRES:-}" ]; then
  exec ./scripts/with-postgres.sh ./scripts/test.sh "$@"
fi

# Each phase says how long it took, so a slow CI run shows where its time went.
phase() { echo "== $1 (${SECONDS}s into the run)"; }

phase "hygiene"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -j2 -- -D warnings
# Sources speak of the project only: no absolute path of any particular machine.
if git grep -nE '(/work/|/home/[a-z]|/root/|/Users/[A-Za-z])' -- . ':!scripts/test.sh'; then
  echo "absolute machine paths found (above): write paths relative to the repository"
  exit 1
fi

# The page scripts against the TypeScript declarations generated from the Rust types (which
# `cargo test` below checks are up to date): tsc --checkJs, with TypeScript from e2e's packages.
phase "page types"
(cd e2e && { [ -x node_modules/.bin/tsc ] || npm ci --no-audit --no-fund; } && node typecheck.mjs)

phase "cargo test"
cargo test --workspace --locked -j2
# The clash that build made serves the API and browser tests below: building clash-cli alone
# would compile much of the workspace again with other features.
export CLASH_SERVE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/clash"

phase "README commands"
./scripts/check-readme.sh

phase "API document"
./scripts/api-test.sh

if [ -x e2e/run.sh ]; then
  phase "browser end-to-end tests"
  e2e/run.sh
fi
echo "== all passed in ${SECONDS}s"
