#!/usr/bin/env bash
# Runs every command in the README's ```sh blocks exactly as it is written there, so a README
# that drifts from the code fails the test command.
#
# * The server command runs for real: it must print its address, answer /healthz with 200, and
#   stop on SIGTERM. It gets a free port and a throw-away database through CLASH_ADDR and
#   CLASH_DB (the text of the command is not changed).
# * `cargo install --path …` installs into a throw-away root (CARGO_INSTALL_ROOT), and the
#   installed `clash` must answer `--version`.
# * `./scripts/test.sh` is the command running this check, so it is not run again.
# * Every other command must exit 0 within its time limit. Files it creates in the working tree
#   are removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
TMP="$(mktemp -d)"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# Every command of the README's sh blocks, one per line: continuation lines joined, trailing
# comments dropped.
readme_commands() {
  awk '
    /^```sh[[:space:]]*$/ { inside = 1; next }
    /^```/ { inside = 0; next }
    inside {
      line = $0
      sub(/[[:space:]]+#.*$/, "", line)
      if (line ~ /\\$/) { sub(/\\$/, "", line); pending = pending line; next }
      line = pending line; pending = ""
      if (line ~ /[^[:space:]]/) print line
    }' README.md
}

# New untracked files in the working tree (so a command's output files can be removed).
untracked() { git ls-files --others --exclude-standard | sort; }

# The HTTP status of GET $2 on 127.0.0.1:$1 (plain bash, so no HTTP client is needed).
http_status() {
  local reply
  reply="$(timeout 10 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"'; printf "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n" "'"$2"'" >&3; head -n 1 <&3' 2>/dev/null || true)"
  echo "$reply" | awk '{print $2}'
}

check_server() {
  local command="$1" log="$TMP/serve.log" port="" _
  CLASH_ADDR=127.0.0.1:0 CLASH_DB="$TMP/readme.db" bash -c "exec $command" </dev/null >"$log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 1800); do
    port="$(sed -n 's#.*http://127\.0\.0\.1:\([0-9][0-9]*\)/.*#\1#p' "$log" | head -n 1)"
    [ -n "$port" ] && break
    if ! kill -0 "$SERVER" 2>/dev/null; then
      echo "README: '$command' stopped before serving:"; cat "$log"; return 1
    fi
    sleep 0.5
  done
  if [ -z "$port" ]; then echo "README: '$command' never printed its address"; cat "$log"; return 1; fi
  local status
  status="$(http_status "$port" /healthz)"
  if [ "$status" != 200 ]; then echo "README: /healthz answered '$status' for '$command'"; cat "$log"; return 1; fi
  status="$(http_status "$port" /)"
  if [ "$status" != 200 ]; then echo "README: the lobby answered '$status' for '$command'"; return 1; fi
  kill -TERM "$SERVER"
  if ! timeout 30 tail --pid="$SERVER" -f /dev/null; then echo "README: '$command' did not stop on SIGTERM"; return 1; fi
  wait "$SERVER" 2>/dev/null || true
  SERVER=""
  echo "README ok (served on a free port, /healthz 200, stopped): $command"
}

check_install() {
  local command="$1"
  CARGO_INSTALL_ROOT="$TMP/install" bash -c "$command" </dev/null >"$TMP/install.log" 2>&1 || {
    echo "README: '$command' failed:"; tail -n 30 "$TMP/install.log"; return 1
  }
  "$TMP/install/bin/clash" --version >/dev/null
  echo "README ok (installed into a throw-away root, clash --version answers): $command"
}

check_command() {
  local command="$1" before after
  before="$(untracked)"
  if ! timeout 900 bash -c "set -o pipefail; $command" </dev/null >"$TMP/out.log" 2>&1; then
    echo "README: '$command' failed:"; tail -n 30 "$TMP/out.log"; return 1
  fi
  after="$(untracked)"
  comm -13 <(echo "$before") <(echo "$after") | while read -r made; do [ -n "$made" ] && rm -f -- "$made"; done
  echo "README ok: $command"
}

count=0
while IFS= read -r command; do
  count=$((count + 1))
  case "$command" in
    "./scripts/test.sh") echo "README ok (this is the running test command): $command" ;;
    *"cargo install --path "*) check_install "$command" ;;
    *" -- serve"*) check_server "$command" ;;
    *) check_command "$command" ;;
  esac
done < <(readme_commands)
[ "$count" -gt 2 ] || { echo "check-readme: found only $count commands in README.md"; exit 1; }
grep -qx 'exec ./scripts/test.sh' .ci/run || { echo "check-readme: .ci/run must run ./scripts/test.sh"; exit 1; }
echo "check-readme: all $count README commands ran as written"
