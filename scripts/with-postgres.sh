#!/usr/bin/env bash
# Run a command beside a throw-away PostgreSQL cluster, then remove the cluster.
#
#   scripts/with-postgres.sh COMMAND [ARGS…]
#
# The command sees CLASH_TEST_POSTGRES=postgres://clash@127.0.0.1:PORT/clash. Debian's
# `postgresql` package is installed when no server binaries are found. PostgreSQL refuses to
# run as root, so when this script runs as root the cluster belongs to an unprivileged system
# user (`clash-pg`, created when missing). The cluster listens on loopback only, on a free port,
# trusts local connections, and lives in a temporary directory that is deleted afterwards.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

server_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(server_bin)" ]; then
  echo "with-postgres: installing Debian's postgresql"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
  # The package starts a cluster of its own; this script uses its own throw-away one instead.
  as_root service postgresql stop >/dev/null 2>&1 || true
fi
PGBIN="$(server_bin)"

OWNER="$(id -un)"
if [ "$(id -u)" = 0 ]; then
  OWNER=clash-pg
  id -u "$OWNER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$OWNER"
fi
as_owner() { if [ "$OWNER" = "$(id -un)" ]; then "$@"; else runuser -u "$OWNER" -- "$@"; fi; }

DIR="$(mktemp -d)"
chmod 755 "$DIR"
[ "$OWNER" = "$(id -un)" ] || chown "$OWNER" "$DIR"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"

stop_cluster() {
  as_owner "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop_cluster EXIT

as_owner "$PGBIN/initdb" -D "$DIR/data" -U clash -A trust --no-sync >"$DIR/initdb.log" 2>&1 || {
  cat "$DIR/initdb.log"; exit 1
}
as_owner "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-h 127.0.0.1 -p $PORT -k $DIR -c fsync=off -c max_connections=200" start >/dev/null || {
  cat "$DIR/server.log"; exit 1
}
as_owner "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U clash clash

export CLASH_TEST_POSTGRES="postgres://clash@127.0.0.1:$PORT/clash"
echo "with-postgres: a throw-away cluster is at $CLASH_TEST_POSTGRES"
"$@"
