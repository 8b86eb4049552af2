#!/usr/bin/env bash
# FerretDB 1.24.2 over PostgreSQL hands a top-level equality to SQL as `_jsonb -> 'field' @> value`,
# but the indexes its createIndex makes are B-trees on `_jsonb -> 'field'`, which `@>` cannot use:
# every read, even by _id, scans the table. This adds, for each field of an index FerretDB made in
# one database, a GIN index on the same expression, which `@>` uses. Run it after the gateway
# opened the database (its indexes exist); PostgreSQL keeps the GIN indexes up to date from then on.
# Usage: bench/ferretdb-gin-indexes.sh RUN_DIR DATABASE
#   RUN_DIR: /tmp/jpgw-ferretdb-PORT, where .ci/ferretdb/start.sh runs PostgreSQL (its socket).
set -euo pipefail
run="${1:?usage: ferretdb-gin-indexes.sh RUN_DIR DATABASE}"
db="${2:?usage: ferretdb-gin-indexes.sh RUN_DIR DATABASE}"
case "$db" in *[!A-Za-z0-9_]*) echo "database name not a plain identifier: $db" >&2 && exit 64 ;; esac
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as=()
[ "$(id -u)" -eq 0 ] && as=(runuser -u postgres --)
"${as[@]}" "$bin/psql" -h "$run" -U ferretdb -d ferretdb -v ON_ERROR_STOP=1 -qAt <<SQL
DO \$\$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT DISTINCT tablename, m[1] AS field
    FROM pg_indexes, regexp_matches(indexdef, '_jsonb -> ''([A-Za-z0-9_]+)''', 'g') AS m
    WHERE schemaname = '$db' AND tablename NOT LIKE '\_ferretdb%'
  LOOP
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin ((_jsonb -> %L))',
      left(r.tablename || '_' || r.field, 58) || '_gin', '$db', r.tablename, r.field);
  END LOOP;
END
\$\$;
SELECT count(*) || ' GIN indexes in $db' FROM pg_indexes WHERE schemaname = '$db' AND indexdef LIKE '%USING gin%';
SQL
