#!/usr/bin/env bash
# bench-load.sh: load the same PostgreSQL server with `pgbench -i` and with
# `brokerbench load`, in one run, and compare them in bytes of table heap (with TOAST)
# per second of wall time, the figure the loader's speed goal is stated in.
#
# usage: scripts/bench-load.sh [customers (1000)] [trade days (5)] [pgbench scale (20)] [workers (cores)]
#
# With BROKERBENCH_DB set (a URL of any database on the server; the user must be able
# to create databases), it uses that server; otherwise it starts a managed cluster in
# a temporary folder and removes it at the end. Set BENCH_TIME=1 to also report peak
# RSS of the brokerbench load (needs /usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."

CUSTOMERS=${1:-1000}
DAYS=${2:-5}
SCALE=${3:-20}
WORKERS=${4:-$(nproc)}

find_pg_tool() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -1
}
PGBENCH=$(find_pg_tool pgbench)
PSQL=$(find_pg_tool psql)
if [ -z "$PGBENCH" ] || [ -z "$PSQL" ]; then
  echo "bench-load: pgbench and psql are needed (apt-get install postgresql-client)" >&2
  exit 1
fi

WORK=$(mktemp -d /tmp/bench-load.XXXXXX)
chmod 755 "$WORK" # a managed cluster runs as the postgres user when we are root
BB="$WORK/brokerbench"
go build -o "$BB" ./cmd/brokerbench

cleanup() {
  if [ -n "${PGDATA_DIR:-}" ]; then "$BB" pg stop --pgdata "$PGDATA_DIR" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ -n "${BROKERBENCH_DB:-}" ]; then
  URL=$BROKERBENCH_DB
else
  PGDATA_DIR="$WORK/pgdata"
  URL=$("$BB" pg start --pgdata "$PGDATA_DIR" --quiet)
fi
# with_db URL NAME: the same server, another database (URL form only).
with_db() { printf '%s' "$1" | sed -E "s#^(postgres(ql)?://[^/]*)/[^?]*#\1/$2#"; }
ADMIN=$(with_db "$URL" postgres)
PGB_URL=$(with_db "$URL" bench_pgbench)
BB_URL=$(with_db "$URL" bench_brokerbench)

sql() { "$PSQL" -X -q -At -d "$1" -c "$2"; }
for db in bench_pgbench bench_brokerbench; do
  sql "$ADMIN" "DROP DATABASE IF EXISTS $db WITH (FORCE)"
  sql "$ADMIN" "CREATE DATABASE $db"
done
heap_bytes() {
  sql "$1" "SELECT coalesce(sum(pg_table_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
}
now() { date +%s.%N; }

echo "server: $("$PSQL" -X -At -d "$ADMIN" -c 'SELECT version()' | cut -d, -f1); $(nproc) cores"

sql "$ADMIN" "CHECKPOINT"
t0=$(now)
"$PGBENCH" -i -s "$SCALE" -q "$PGB_URL" >"$WORK/pgbench.log" 2>&1 || { cat "$WORK/pgbench.log"; exit 1; }
t1=$(now)
PGB_BYTES=$(heap_bytes "$PGB_URL")

sql "$ADMIN" "CHECKPOINT"
TIMECMD=()
if [ -n "${BENCH_TIME:-}" ] && [ -x /usr/bin/time ]; then TIMECMD=(/usr/bin/time -v -o "$WORK/time.txt"); fi
t2=$(now)
"${TIMECMD[@]}" "$BB" --db "$BB_URL" load --customers "$CUSTOMERS" --trade-days "$DAYS" --workers "$WORKERS" --quiet >"$WORK/load.txt"
t3=$(now)
BB_BYTES=$(heap_bytes "$BB_URL")

awk -v pb="$PGB_BYTES" -v pt="$(echo "$t1 - $t0" | bc)" -v bb="$BB_BYTES" -v bt="$(echo "$t3 - $t2" | bc)" \
    -v s="$SCALE" -v c="$CUSTOMERS" -v d="$DAYS" 'BEGIN {
  pr = pb / pt / 1048576; br = bb / bt / 1048576
  printf "pgbench -i -s %d:                     %8.1f MB heap in %6.1f s = %6.1f MB/s\n", s, pb / 1048576, pt, pr
  printf "brokerbench load %d customers x %d days: %8.1f MB heap in %6.1f s = %6.1f MB/s\n", c, d, bb / 1048576, bt, br
  printf "ratio brokerbench / pgbench: %.2f\n", br / pr
}'
grep -E '^(phase|loaded)' "$WORK/load.txt" | sed 's/^/  /'
if [ -f "$WORK/time.txt" ]; then grep -E 'Maximum resident|Elapsed' "$WORK/time.txt" | sed 's/^\s*/  /'; fi
