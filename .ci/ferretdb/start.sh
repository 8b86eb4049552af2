#!/usr/bin/env bash
# Starts FerretDB 1.24.2 (a MongoDB wire-protocol server storing its data in PostgreSQL or SQLite)
# on 127.0.0.1:PORT for the MongoDB leg of the tests, in the background, and prints its
# MONGODB_URI on stdout. Builds the embedding program (main.go) once, with Go and its module
# proxy. The PostgreSQL backend gets a server of its own, started here in a fresh data directory
# (Debian's `postgresql`, installed if missing) and listening on a Unix socket only; it runs as the
# `postgres` user when this runs as root, as PostgreSQL refuses root. Both backends keep their
# data under /tmp/jpgw-ferretdb-PORT, which stop.sh removes. FerretDB itself listens on a Unix
# socket there, behind main.go's gate, which serves one command at a time (see main.go).
# Usage: .ci/ferretdb/start.sh PORT [postgresql|sqlite]   (default postgresql)
#        .ci/ferretdb/stop.sh PORT
set -euo pipefail
cd "$(dirname "$0")"
port="${1:?usage: start.sh PORT [postgresql|sqlite]}"
backend="${2:-postgresql}"
case "$backend" in postgresql | sqlite) ;; *) echo "unknown backend: $backend" >&2 && exit 64 ;; esac

if [ ! -x target/ferretdb-ci ] || [ main.go -nt target/ferretdb-ci ] || [ go.sum -nt target/ferretdb-ci ]; then
  go build -o target/ferretdb-ci . >&2
fi

./stop.sh "$port" 2>/dev/null || true
run=/tmp/jpgw-ferretdb-$port
mkdir -p "$run"

if [ "$backend" = postgresql ]; then
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql; } >&2
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  as=()
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$run"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$run/pg" -U ferretdb --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$run/initdb.log" 2>&1 ||
    { cat "$run/initdb.log" >&2 && exit 1; }
  # A throw-away test database: no fsync, no TCP port (the socket is in the run directory).
  "${as[@]}" "$bin/pg_ctl" -D "$run/pg" -l "$run/postgresql.log" -w -t 60 start -o \
    "-c listen_addresses= -k $run -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2 ||
    { cat "$run/postgresql.log" >&2 && exit 1; }
  "${as[@]}" "$bin/createdb" -h "$run" -U ferretdb ferretdb >&2
  # FerretDB 1.x hands a top-level equality to SQL as `_jsonb -> 'field' @> value`, but the
  # indexes its createIndex makes are B-trees on `_jsonb -> 'field'`, which `@>` cannot use: every
  # read, even by _id, scans its table, and a registry import of 10,000 rows passed maxTimeMS. An
  # event trigger adds, beside each such index as FerretDB creates it, a GIN index on the same
  # expression, which `@>` uses; PostgreSQL keeps it current from then on. No step by hand.
  "${as[@]}" "$bin/psql" -h "$run" -U ferretdb -d ferretdb -v ON_ERROR_STOP=1 -qAt -f gin-indexes.sql >&2
  url="postgres:///ferretdb?host=$run&user=ferretdb"
else
  mkdir -p "$run/sqlite"
  url="file:$run/sqlite/"
fi

target/ferretdb-ci "$port" "$backend" "$url" "$run/ferretdb.sock" >"$run/ferretdb.log" 2>&1 &
echo $! >"$run/ferretdb.pid"
for _ in $(seq 1 200); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "mongodb://127.0.0.1:$port/?directConnection=true"
    exit 0
  fi
  if ! kill -0 "$(cat "$run/ferretdb.pid")" 2>/dev/null; then break; fi
  sleep 0.1
done
echo "FerretDB did not start: $(cat "$run/ferretdb.log")" >&2
exit 1
