#!/usr/bin/env bash
# The API document against the server it describes, as a third party would use it:
#
# 1. Schemathesis (from PyPI, into .venv/api when missing) runs every phase (examples, coverage,
#    fuzzing, stateful) against a running `clash serve`, from the served /api/openapi.json alone,
#    and must find nothing: every status and error code documented, request schemas exactly what
#    the server accepts, responses as documented. Its settings: e2e/api/schemathesis.toml.
# 2. A client generated from the same document (openapi-typescript's types for openapi-fetch,
#    from e2e's npm packages) is type-checked, then plays a whole In A Wicked Age conflict:
#    create a table, invite, claim, play to the end, export the record (e2e/api/conflict.mjs).
#
# The server gets a free loopback port, a throw-away database and creation limits a test run
# does not reach; it is always stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
SCHEMATHESIS="schemathesis==4.32.5"
VENV="$ROOT/.venv/api"

if ! "$VENV/bin/pip" show schemathesis 2>/dev/null | grep -qx "Version: ${SCHEMATHESIS#*==}"; then
  echo "api: installing $SCHEMATHESIS into .venv/api"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$SCHEMATHESIS"
fi

if [ ! -x e2e/node_modules/.bin/openapi-typescript ] || [ ! -d e2e/node_modules/openapi-fetch ]; then
  echo "api: installing npm packages"
  (cd e2e && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
fi

# CLASH_SERVE_BIN: a clash already built (scripts/test.sh passes the one `cargo test` built, which
# a build of clash-cli alone would compile again with other features).
BIN="${CLASH_SERVE_BIN:-}"
if [ -z "$BIN" ]; then
  echo "api: building clash"
  cargo build -j2 -p clash-cli --bin clash
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/clash"
fi

# shellcheck source=scripts/lib/throwaway-server.sh
. scripts/lib/throwaway-server.sh
throwaway_server "$BIN" --create-burst 100000 --creates-per-minute 100000
TMP="$THROWAWAY_DIR"

# The tables schemathesis's coverage and fuzzing phases act on (see schemathesis.toml).
eval "$(python3 - <<'EOF'
import json, os, urllib.request

def call(method, path, key=None, body=None):
    url = os.environ["CLASH_URL"] + path + (f"?key={key}" if key else "")
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)

def table():
    made = call("POST", "/api/tables", body={"ruleset": "wicked-age", "title": "Schemathesis"})
    return made["table"], made["owner_key"]

table_id, gm = table()
invite = call("POST", f"/api/tables/{table_id}/seats/p1/link", gm)["invite"]
seat = call("POST", f"/api/tables/{table_id}/claim", invite)["key"]
spare, spare_gm = table()
for name, value in [("CLASH_TABLE", table_id), ("CLASH_GM_KEY", gm), ("CLASH_SEAT_KEY", seat),
                    ("CLASH_SPARE_TABLE", spare), ("CLASH_SPARE_KEY", spare_gm)]:
    print(f"export {name}={value}")
EOF
)"

echo "api: schemathesis against $CLASH_URL"
"$VENV/bin/st" --config-file e2e/api/schemathesis.toml run "$CLASH_URL/api/openapi.json" \
  --report junit --report-dir "$TMP/report"

echo "api: a client generated from the document plays a Wicked Age conflict"
(
  cd e2e
  node_modules/.bin/openapi-typescript "$CLASH_URL/api/openapi.json" -o api/schema.d.ts
  node_modules/.bin/tsc -p api/tsconfig.json
  node --test api/conflict.test.mjs
)
