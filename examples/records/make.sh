#!/usr/bin/env bash
# Makes the example records again: one ended table per game, played by strong bots on a
# throw-away `clash serve` (the GM's opening commands sent first), ended by the GM and downloaded
# from `GET /api/tables/{id}/export` after the end. Chance comes from the server's own secret,
# so each run plays different games. Needs curl and jq.
#
#   examples/records/make.sh                # all four games into examples/records/
#   examples/records/make.sh nd-tourists    # only the games named
set -euo pipefail
WANTED=" $* "
want() { [ "$WANTED" = "  " ] || [[ "$WANTED" == *" $1 "* ]]; }
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
OUT="$ROOT/examples/records"
TMP="$(mktemp -d)"
cargo build --release -j2 -p clash-cli --bin clash
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/clash"
"$BIN" serve --addr 127.0.0.1:0 --db "$TMP/records.db" >"$TMP/serve.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$TMP"' EXIT
BASE=""
for _ in $(seq 1 100); do
  BASE="$(sed -n 's#.*\(http://127\.0\.0\.1:[0-9][0-9]*\)/.*#\1#p' "$TMP/serve.log" | head -n 1)"
  [ -n "$BASE" ] && break
  sleep 0.2
done
[ -n "$BASE" ] || { echo "the server did not start:"; cat "$TMP/serve.log"; exit 1; }

api() { # METHOD PATH [BODY]
  local reply
  if ! reply="$(curl -sS --fail-with-body -X "$1" -H 'content-type: application/json' ${3:+--data "$3"} "$BASE$2")"; then
    echo "records: $1 $2 answered: $reply" >&2
    return 1
  fi
  printf '%s' "$reply"
}

# play NAME RULESET TITLE SETUP BOT-SEATS DONE-JQ [SEAT COMMAND]…
# While the game runs, the GM sends $NUDGE_COMMAND whenever the view matches $NUDGE (what bots
# leave to the GM).
play() {
  local name="$1" ruleset="$2" title="$3" setup="$4" bots="$5" done="$6" view
  shift 6
  local made table key
  made="$(api POST /api/tables "$(jq -n --arg r "$ruleset" --arg t "$title" --argjson s "$setup" \
    '{ruleset: $r, title: $t, setup: $s}')")"
  table="$(jq -r .table <<<"$made")"
  key="$(jq -r .owner_key <<<"$made")"
  while [ $# -gt 0 ]; do
    api POST "/api/tables/$table/commands?key=$key" "$(jq -n --arg s "$1" --argjson c "$2" '{command: $c, as: $s}')" >/dev/null
    shift 2
  done
  for seat in $bots; do
    api POST "/api/tables/$table/seats/$seat/bot?key=$key" '{"strength": "strong"}' >/dev/null
  done
  for _ in $(seq 1 600); do
    view="$(api GET "/api/tables/$table/view?key=$key")"
    if jq -e "(.closed == true) or (.view | $done)" >/dev/null <<<"$view"; then
      break
    fi
    if [ -n "${NUDGE:-}" ] && jq -e ".view | $NUDGE" >/dev/null <<<"$view"; then
      api POST "/api/tables/$table/commands?key=$key" "$(jq -n --argjson c "$NUDGE_COMMAND" '{command: $c, as: "gm"}')" >/dev/null || true
    fi
    sleep 0.5
  done
  # A game that is over has ended its table by itself.
  if ! api GET "/api/tables/$table/view?key=$key" | jq -e '.closed == true' >/dev/null; then
    api POST "/api/tables/$table/close?key=$key" '{}' >/dev/null
  fi
  api GET "/api/tables/$table/export?key=$key" | jq . >"$OUT/$name.json"
  echo "records: $OUT/$name.json"
}

preset() { jq -c . "$ROOT/crates/$1/presets/$2"; }

# Iron Triangle: Ada against the Brute (revealed), with little energy left on either side.
want iron-triangle && play iron-triangle iron-triangle "The ledger" \
  "$(preset iron-triangle duel.json | jq -c '.characters[0].current = {defend: 1, grapple: 1, attack: 1}
     | .characters[1].current = {defend: 1, grapple: 1, attack: 1} | .characters[1].state = {revealed: true}')" \
  "p1 gm" '.conflict.outcome != null' \
  gm '{"type": "start_conflict", "stakes": "The ledger", "npcs": ["Brute"]}'

# In A Wicked Age: Ysolde against the Khan over the ferry.
want wicked-age && play wicked-age wicked-age "The ferry" \
  "$(preset wicked-age brawl.json | jq -c '.characters |= map(select(.name == "Ysolde" or .name == "The Khan"))')" \
  "p1 gm" '(.conflict == null) and (.last_conflict != null)' \
  gm '{"type": "start_conflict", "participants": ["Ysolde", "The Khan"], "action": "The ferry"}'

# Triforce: three players, a game of at most fifteen turns.
want triforce && play triforce triforce "Three players" \
  '{"players": 3, "names": {"p1": "Ada", "p2": "Bo", "p3": "Cy"}, "turn_limit": 15}' \
  "p1 p2 p3" 'false'

# N-Dimensional Tourists: the four sides of Tokyo, the GM starting each next round, played until
# the Conflict is over or for five minutes (the record here: 16 rounds, 408 commands, then the
# GM ended the table), a long record for the review's benchmark.
want nd-tourists && NUDGE='.phase == "aftermath"' NUDGE_COMMAND='{"type": "next_round"}' \
play nd-tourists nd-tourists "Tokyo" "$(preset nd-tourists four-sides.json)" \
  "p1 p2 p3 gm" '.phase == "ended"' \
  gm '{"type": "start"}'
echo "records: done"
