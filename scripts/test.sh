#!/usr/bin/env bash
# The whole test suite: every crate's tests, then the browser end-to-end tests.
# Installs what the browser tests need (Debian's Chromium, npm packages) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --locked -j2

if [ -x e2e/run.sh ]; then
  e2e/run.sh
fi
