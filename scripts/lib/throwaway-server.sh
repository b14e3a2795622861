# Sourced (not run) by the scripts that test or measure a real `clash serve`: the API test, the
# browser suite and the Lighthouse benchmark. One way to start a throw-away server, so they
# cannot drift apart.
#
#   throwaway_server BIN [SERVE-ARG…]
#
# starts `BIN serve` on a free loopback port (port 0: the server picks one and prints it) with a
# database in a fresh temporary folder ($THROWAWAY_DIR), writes its output to $THROWAWAY_LOG
# (default: server.log in that folder), waits until /healthz answers, and exports CLASH_URL. The server is stopped and the folder removed when the calling script
# exits (an EXIT trap, so the caller must not set its own). Needs only bash.

throwaway_server() {
  local bin="$1" port="" status="" _
  shift
  THROWAWAY_DIR="$(mktemp -d)"
  local log="${THROWAWAY_LOG:-$THROWAWAY_DIR/server.log}"
  "$bin" serve --addr 127.0.0.1:0 --db "$THROWAWAY_DIR/clash.db" "$@" >"$log" 2>&1 &
  THROWAWAY_PID=$!
  trap throwaway_stop EXIT
  for _ in $(seq 1 600); do
    port="$(sed -n 's#.*http://127\.0\.0\.1:\([0-9][0-9]*\)/.*#\1#p' "$log" | head -n 1)"
    if [ -n "$port" ]; then
      status="$(throwaway_status "$port")"
      [ "$status" = 200 ] && break
    fi
    if ! kill -0 "$THROWAWAY_PID" 2>/dev/null; then
      echo "the server did not start:" >&2; cat "$log" >&2; return 1
    fi
    sleep 0.2
  done
  if [ "$status" != 200 ]; then
    echo "the server never answered /healthz:" >&2; cat "$log" >&2; return 1
  fi
  export CLASH_URL="http://127.0.0.1:$port"
}

# The HTTP status of GET /healthz on 127.0.0.1:$1 (plain bash: no HTTP client needed).
throwaway_status() {
  timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"'; printf "GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3; head -n 1 <&3' 2>/dev/null | awk '{print $2}'
}

throwaway_stop() {
  if [ -n "${THROWAWAY_PID:-}" ]; then
    kill "$THROWAWAY_PID" 2>/dev/null || true
    wait "$THROWAWAY_PID" 2>/dev/null || true
  fi
  [ -n "${THROWAWAY_DIR:-}" ] && rm -rf "$THROWAWAY_DIR"
  return 0
}
