#!/usr/bin/env bash
# Stops what start.sh PORT started (FerretDB, then its PostgreSQL server) and removes its data.
# Usage: .ci/ferretdb/stop.sh PORT
set -uo pipefail
port="${1:?usage: stop.sh PORT}"
run=/tmp/jpgw-ferretdb-$port
[ -d "$run" ] || exit 0
if [ -f "$run/ferretdb.pid" ]; then
  pid=$(cat "$run/ferretdb.pid")
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null
fi
if [ -f "$run/pg/postmaster.pid" ]; then
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  as=()
  [ "$(id -u)" -eq 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$bin/pg_ctl" -D "$run/pg" -m immediate -w stop >/dev/null
fi
rm -rf "$run"
