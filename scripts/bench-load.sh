#!/usr/bin/env bash
# bench-load.sh: load the same PostgreSQL server with `pgbench -i` and with
# `brokerbench load`, in one run, and compare them in bytes of table heap (with TOAST)
# per second of wall time, the figure the loader's speed goal is stated in.
#
# usage: scripts/bench-load.sh [customers (1000)] [trade days (5)] [pgbench scale (20)] [workers (cores)]
#
# With BROKERBENCH_DB set (a URL of any database on the server; the user must be able
# to create databases), it uses that server; otherwise it starts a managed cluster in
# a temporary folder and removes it at the end, and then also reports CPU seconds
# (server and client) per MB, which neighbours on a shared machine do not skew. It
# prints the peak RSS of the brokerbench load. Needs /usr/bin/time (package time).
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

# server_ticks: CPU clock ticks used so far by the managed cluster (postmaster, live
# backends, and exited backends through the postmaster's children counters). Wall time
# on a shared machine swings with the neighbours; CPU per MB does not, so the script
# reports both when it runs the cluster itself.
server_ticks() {
  [ -n "${PGDATA_DIR:-}" ] || { echo 0; return; }
  local pm tot=0 p f
  pm=$(head -1 "$PGDATA_DIR/postmaster.pid" 2>/dev/null || head -1 "$PGDATA_DIR/data/postmaster.pid")
  for p in $pm $(pgrep -P "$pm"); do
    read -r -a f < "/proc/$p/stat" 2>/dev/null || continue
    tot=$((tot + f[13] + f[14] + f[15] + f[16]))
  done
  echo "$tot"
}
HZ=$(getconf CLK_TCK)

echo "server: $("$PSQL" -X -At -d "$ADMIN" -c 'SELECT version()' | cut -d, -f1); $(nproc) cores"

sql "$ADMIN" "CHECKPOINT"
s0=$(server_ticks)
t0=$(now)
/usr/bin/time -f "%U %S" -o "$WORK/pgbench.cpu" "$PGBENCH" -i -s "$SCALE" -q "$PGB_URL" >"$WORK/pgbench.log" 2>&1 || { cat "$WORK/pgbench.log"; exit 1; }
t1=$(now)
s1=$(server_ticks)
PGB_BYTES=$(heap_bytes "$PGB_URL")

sql "$ADMIN" "CHECKPOINT"
s2=$(server_ticks)
t2=$(now)
/usr/bin/time -v -o "$WORK/time.txt" "$BB" --db "$BB_URL" load --customers "$CUSTOMERS" --trade-days "$DAYS" --workers "$WORKERS" --quiet >"$WORK/load.txt"
t3=$(now)
s3=$(server_ticks)
BB_BYTES=$(heap_bytes "$BB_URL")
BB_CPU=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$WORK/time.txt")

awk -v pb="$PGB_BYTES" -v pt="$(echo "$t1 - $t0" | bc)" -v bb="$BB_BYTES" -v bt="$(echo "$t3 - $t2" | bc)" \
    -v s="$SCALE" -v c="$CUSTOMERS" -v d="$DAYS" 'BEGIN {
  pr = pb / pt / 1048576; br = bb / bt / 1048576
  printf "pgbench -i -s %d:                     %8.1f MB heap in %6.1f s = %6.1f MB/s\n", s, pb / 1048576, pt, pr
  printf "brokerbench load %d customers x %d days: %8.1f MB heap in %6.1f s = %6.1f MB/s\n", c, d, bb / 1048576, bt, br
  printf "ratio brokerbench / pgbench: %.2f\n", br / pr
}'
if [ -n "${PGDATA_DIR:-}" ]; then
  awk -v pb="$PGB_BYTES" -v bb="$BB_BYTES" -v ps="$(( s1 - s0 ))" -v bs="$(( s3 - s2 ))" -v hz="$HZ" \
      -v pc="$(awk '{print $1 + $2}' "$WORK/pgbench.cpu")" -v bc="$BB_CPU" 'BEGIN {
    pcpu = ps / hz + pc; bcpu = bs / hz + bc
    printf "CPU (server + client): pgbench %.1f s = %.1f MB per CPU-s; brokerbench %.1f s = %.1f MB per CPU-s; ratio %.2f\n",
      pcpu, pb / 1048576 / pcpu, bcpu, bb / 1048576 / bcpu, (bb / bcpu) / (pb / pcpu)
  }'
fi
grep -E '^(phase|loaded)' "$WORK/load.txt" | sed 's/^/  /'
grep -E 'Maximum resident' "$WORK/time.txt" | sed 's/^\s*/  brokerbench /'
