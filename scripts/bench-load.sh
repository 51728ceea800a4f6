#!/usr/bin/env bash
# bench-load.sh: load the same PostgreSQL server with `pgbench -i` and with
# `brokerbench load`, in one run, and compare them in bytes of table heap (with TOAST)
# per second of wall time, the figure the loader's speed goal is stated in.
#
# usage: scripts/bench-load.sh [customers (1000)] [trade days (5)] [pgbench scale (20)] [workers (cores)]
#
# With BROKERBENCH_DB set (a URL of any database on the server; the user must be able
# to create databases), it uses that server and brokerbench loads it with --db (only
# per-session settings). Otherwise it starts a managed cluster in a temporary folder,
# removes it at the end, and brokerbench loads it with `load --pgdata`: restarted with
# the load settings (wal_level = minimal, ...; internal/pgmanaged LoadSettings) and
# restored after; pgbench -i runs on the cluster's normal settings.
# BENCH_LOAD_SETTINGS=0 makes brokerbench load the managed cluster through --db as
# well (the normal settings), for a before/after of the settings in one run.
#
# It reports, besides the ratio of heap MiB/s:
#   - CPU seconds (server and client) per MiB, which neighbours on a shared machine do
#     not skew (the managed cluster only). As root with cgroup v1's cpuacct, every
#     process the script starts runs in a cgroup of its own, so the server's CPU is
#     counted across the load's restarts and includes the background writers;
#     otherwise the postmaster's children are summed, which a restart would lose, so
#     the server CPU is then left out.
#   - the phase split of the load (generate and copy, indexes and keys, analyze);
#   - the peak RSS of the brokerbench load and the load average around the run;
#   - a projection of 5,000 customers x 300 trade days (PROJECT_CUSTOMERS and
#     PROJECT_DAYS change it; docs/load-speed.md). The model: load time, wall and CPU,
#     is proportional to the bytes on disk (data and indexes) at the rate this run
#     measured, and the bytes are this run's split into the growing tables, which
#     scale with customers x trade days (TRADE, TRADE_HISTORY, SETTLEMENT,
#     CASH_TRANSACTION, HOLDING_HISTORY, HOLDING), and the rest, which scale with the
#     customers. Index sorts grow a little faster than linearly and ANALYZE samples a
#     fixed number of rows, so the projection is a rough estimate in both directions.
# Needs /usr/bin/time (package time) and bc.
set -euo pipefail
cd "$(dirname "$0")/.."

CUSTOMERS=${1:-1000}
DAYS=${2:-5}
SCALE=${3:-20}
WORKERS=${4:-$(nproc)}
PROJECT_CUSTOMERS=${PROJECT_CUSTOMERS:-5000}
PROJECT_DAYS=${PROJECT_DAYS:-300}

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

# CPU accounting: a cpuacct cgroup holding this shell and so everything it starts from
# now on (the server included: pg_ctl forks it from a child of ours, restarts too).
CG=""
if [ -z "${BROKERBENCH_DB:-}" ] && [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpuacct/cgroup.procs ]; then
  CG=/sys/fs/cgroup/cpuacct/bench-load-$$
  mkdir "$CG" && echo $$ > "$CG/cgroup.procs" || CG=""
fi

cleanup() {
  if [ -n "${PGDATA_DIR:-}" ]; then "$BB" pg stop --pgdata "$PGDATA_DIR" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
  if [ -n "$CG" ]; then
    echo $$ > /sys/fs/cgroup/cpuacct/cgroup.procs 2>/dev/null || true
    rmdir "$CG" 2>/dev/null || true
  fi
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
# `load --pgdata` loads the managed cluster's database brokerbench.
BB_DBNAME=bench_brokerbench
if [ -n "${PGDATA_DIR:-}" ] && [ "${BENCH_LOAD_SETTINGS:-1}" != 0 ]; then BB_DBNAME=brokerbench; fi
BB_URL=$(with_db "$URL" "$BB_DBNAME")

sql() { "$PSQL" -X -q -At -d "$1" -c "$2"; }
for db in bench_pgbench "$BB_DBNAME"; do
  sql "$ADMIN" "DROP DATABASE IF EXISTS $db WITH (FORCE)"
  sql "$ADMIN" "CREATE DATABASE $db"
done
heap_bytes() {
  sql "$1" "SELECT coalesce(sum(pg_table_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
}
now() { date +%s.%N; }

# server_ticks: CPU clock ticks used so far by the managed cluster (postmaster, live
# backends, and exited backends through the postmaster's children counters); the
# fallback without the cgroup. Wall time on a shared machine swings with the
# neighbours; CPU per MiB does not.
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
# cpu_now: CPU seconds used so far by the cgroup (server and clients), or by the
# server's processes without it.
cpu_now() {
  if [ -n "$CG" ]; then awk '{printf "%.3f", $1 / 1e9}' "$CG/cpuacct.usage"
  else awk -v t="$(server_ticks)" -v hz="$HZ" 'BEGIN {printf "%.3f", t / hz}'; fi
}

echo "server: $("$PSQL" -X -At -d "$ADMIN" -c 'SELECT version()' | cut -d, -f1); $(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

sql "$ADMIN" "CHECKPOINT"
c0=$(cpu_now)
t0=$(now)
/usr/bin/time -f "%U %S" -o "$WORK/pgbench.cpu" "$PGBENCH" -i -s "$SCALE" -q "$PGB_URL" >"$WORK/pgbench.log" 2>&1 || { cat "$WORK/pgbench.log"; exit 1; }
t1=$(now)
c1=$(cpu_now)
PGB_BYTES=$(heap_bytes "$PGB_URL")

sql "$ADMIN" "CHECKPOINT"
if [ "$BB_DBNAME" = brokerbench ]; then
  TARGET=(--pgdata "$PGDATA_DIR")
else
  TARGET=(--db "$BB_URL")
fi
c2=$(cpu_now)
t2=$(now)
/usr/bin/time -v -o "$WORK/time.txt" "$BB" "${TARGET[@]}" load --customers "$CUSTOMERS" --trade-days "$DAYS" --workers "$WORKERS" >"$WORK/load.txt" 2>"$WORK/load.err" || { cat "$WORK/load.err"; exit 1; }
t3=$(now)
c3=$(cpu_now)
BB_BYTES=$(heap_bytes "$BB_URL")
BB_CPU=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$WORK/time.txt")
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -q "with the load settings" "$WORK/load.err"; then
  echo "brokerbench loaded with the load settings (load --pgdata; BENCH_LOAD_SETTINGS=0 for the normal ones)"
elif [ "$BB_DBNAME" = brokerbench ]; then
  echo "brokerbench loaded with the cluster's own settings (load --pgdata did not restart it)"
else
  echo "brokerbench loaded through --db (the server's own settings)"
fi

awk -v pb="$PGB_BYTES" -v pt="$(echo "$t1 - $t0" | bc)" -v bb="$BB_BYTES" -v bt="$(echo "$t3 - $t2" | bc)" \
    -v s="$SCALE" -v c="$CUSTOMERS" -v d="$DAYS" 'BEGIN {
  pr = pb / pt / 1048576; br = bb / bt / 1048576
  printf "pgbench -i -s %d:                     %8.1f MiB heap in %6.1f s = %6.1f MiB/s\n", s, pb / 1048576, pt, pr
  printf "brokerbench load %d customers x %d days: %8.1f MiB heap in %6.1f s = %6.1f MiB/s\n", c, d, bb / 1048576, bt, br
  printf "ratio brokerbench / pgbench (wall): %.2f\n", br / pr
}'
if [ -n "${PGDATA_DIR:-}" ]; then
  PGB_CLIENT=$(awk '{print $1 + $2}' "$WORK/pgbench.cpu")
  awk -v pb="$PGB_BYTES" -v bb="$BB_BYTES" -v pd="$(echo "$c1 - $c0" | bc)" -v bd="$(echo "$c3 - $c2" | bc)" \
      -v pc="$PGB_CLIENT" -v bc="$BB_CPU" -v cg="$CG" 'BEGIN {
    # With the cgroup the delta is everything (server and client); without it, the server only.
    if (cg != "") { pcpu = pd; bcpu = bd } else { pcpu = pd + pc; bcpu = bd + bc }
    printf "CPU (server + client): pgbench %.1f s (client %.1f) = %.1f MiB per CPU-s; brokerbench %.1f s (client %.1f) = %.1f MiB per CPU-s; ratio %.2f\n",
      pcpu, pc, pb / 1048576 / pcpu, bcpu, bc, bb / 1048576 / bcpu, (bb / bcpu) / (pb / pcpu)
    printf "CPU seconds per heap MiB: pgbench %.4f, brokerbench %.4f\n", pcpu / (pb / 1048576), bcpu / (bb / 1048576)
  }'
  [ -n "$CG" ] || echo "  (no cpuacct cgroup: the server's CPU of a load that restarts the server is undercounted)"
fi
grep -E '^(phase|loaded)' "$WORK/load.txt" | sed 's/^/  /'
grep -E 'Maximum resident' "$WORK/time.txt" | sed 's/^\s*/  brokerbench /'

# The projection (see the header): the load summary's per-table sizes with indexes,
# split into the tables that grow with the trade days and the rest.
awk -v c="$CUSTOMERS" -v d="$DAYS" -v pc="$PROJECT_CUSTOMERS" -v pd="$PROJECT_DAYS" \
    -v bt="$(echo "$t3 - $t2" | bc)" -v bcpu="$(echo "$c3 - $c2" | bc)" -v cg="$CG" -v bc="$BB_CPU" '
  BEGIN { grow["trade"]; grow["trade_history"]; grow["settlement"]; grow["cash_transaction"]; grow["holding_history"]; grow["holding"] }
  NF == 4 && $1 != "table" && $1 != "all" && $1 != "phase" { if ($1 in grow) g += $4; else f += $4 }
  END {
    if (g + f == 0) exit
    if (cg == "") bcpu += bc
    scale = (f * pc / c + g * (pc * pd) / (c * d)) / (f + g)
    printf "projection %d customers x %d days: %.0f GB with indexes (this run %.0f MB: %.0f growing, %.0f not),", pc, pd, (f * pc / c + g * (pc * pd) / (c * d)) / 1000, f + g, g, f
    printf " load about %.0f min wall at this run'"'"'s rate, %.0f CPU-min\n", bt * scale / 60, bcpu * scale / 60
  }' "$WORK/load.txt"
