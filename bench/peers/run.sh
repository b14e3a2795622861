#!/usr/bin/env bash
# Compare Clash's exact odds and game solver with peer tools (icepool, nashpy, pygambit).
#
# Creates a Python virtual environment (default /tmp/clash-peers-venv, or $PEERS_VENV), installs
# the peers from PyPI, builds the Rust timing harness in release mode, solves the same problems
# in both and prints the answers side by side with the time ratios. Needs network access to
# PyPI, so it is not part of the test suite.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${PEERS_VENV:-/tmp/clash-peers-venv}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check icepool nashpy pygambit

# The timing harnesses: matrix games (clash-analysis) and each game's own problems.
cargo build --quiet --release -j2 -p clash-analysis --example peers
cargo build --quiet --release -j2 -p iron-triangle --example peers_iron_triangle
cargo build --quiet --release -j2 -p triforce --example peers_triforce
cargo build --quiet --release -j2 -p wicked-age --example peers_wicked_age
harnesses="$CARGO_TARGET_DIR/release/examples"

# The Iron Triangle 13x13 move game, payoffs computed by the engine (the same matrix as
# `clash solve iron-triangle moves --state bench/peers/it13.json --active-stance A2
# --opponent-stance G1`).
matrix="$(mktemp)"
"$harnesses/peers_iron_triangle" moves "$here/it13.json" A2 G1 > "$matrix"

# The two-stage turn on it13.json and a whole duel (crates/iron-triangle/data/duel.json) are
# solved by the harness in-process; the peers solve the same move and stance games.
"$venv/bin/python" "$here/compare.py" "$harnesses" "$matrix" "$here/it13.json" "$root/crates/iron-triangle/data/duel.json"
rm -f "$matrix"
