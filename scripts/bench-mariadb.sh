#!/usr/bin/env bash
# bench-mariadb.sh: brokerbench on MariaDB against sysbench on the same server, in one
# run (docs/mysql.md §6):
#   load   MB of table data (InnoDB's data_length: the rows in their clustered
#          indexes, secondary indexes left out) per second of wall time, for
#          `sysbench oltp_read_write prepare` and for `brokerbench load`;
#   run    client CPU per SQL statement, `sysbench oltp_read_write run` and
#          `brokerbench run` at the same number of connections, each client's own
#          process (/proc/PID/stat utime+stime) sampled at two instants inside its
#          measured window, divided by the statements it sent between them.
# The server is a throwaway MariaDB started here from the distribution's binaries
# (machines: `apt-get install mariadb-server sysbench`), on a free port, removed at the
# end. A benchmark, not a test: it prints figures; compare the ratios within one run.
#
# usage: scripts/bench-mariadb.sh [customers (1000)] [trade days (5)] [sysbench tables (8)] [rows per table (100000)] [connections (8)] [seconds (30)]
set -euo pipefail
cd "$(dirname "$0")/.."

CUSTOMERS=${1:-1000}
DAYS=${2:-5}
SB_TABLES=${3:-8}
SB_ROWS=${4:-100000}
CONNS=${5:-8}
SECS=${6:-30}
WARMUP=5

for tool in sysbench mariadbd mariadb-install-db mariadb jq bc; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    echo "bench-mariadb: $tool is needed (apt-get install mariadb-server mariadb-client sysbench jq bc)" >&2
    exit 1
  fi
done
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)

WORK=$(mktemp -d /tmp/bench-mariadb.XXXXXX)
chmod 755 "$WORK"
BB="$WORK/brokerbench"
go build -o "$BB" ./cmd/brokerbench

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PW=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
DATA="$WORK/data"
USER_OPT=()
if [ "$(id -u)" = 0 ]; then USER_OPT=(--user=mysql); chown mysql:mysql "$WORK"; fi
cleanup() {
  if [ -f "$WORK/mysqld.pid" ]; then kill "$(cat "$WORK/mysqld.pid")" 2>/dev/null || true; sleep 2; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

mariadb-install-db --no-defaults "${USER_OPT[@]}" --datadir="$DATA" --skip-test-db >/dev/null
# The same settings as the managed MariaDB (internal/mdbmanaged DefaultSettings).
"$MARIADBD" --no-defaults "${USER_OPT[@]}" --datadir="$DATA" --socket="$WORK/mysqld.sock" --port="$PORT" \
  --bind-address=127.0.0.1 --skip-name-resolve --pid-file="$WORK/mysqld.pid" --log-error="$WORK/err.log" \
  --max-connections=500 --innodb-buffer-pool-size=512M --innodb-log-file-size=1G \
  --innodb-flush-log-at-trx-commit=1 --performance-schema=ON --local-infile=1 &
for _ in $(seq 1 200); do [ -S "$WORK/mysqld.sock" ] && break; sleep 0.1; done
sql() { mariadb --no-defaults -S "$WORK/mysqld.sock" -u "$(id -un)" -N -B -e "$1"; }
sql "CREATE DATABASE sbtest; CREATE DATABASE bb;
     CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '$PW'; GRANT ALL ON *.* TO 'bench'@'127.0.0.1';"
DSN="mysql://bench:$PW@127.0.0.1:$PORT/bb"
SB=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$PORT" --mysql-user=bench --mysql-password="$PW"
    --mysql-db=sbtest --tables="$SB_TABLES" --table-size="$SB_ROWS")
data_mb() { sql "SELECT SUM(data_length) / 1048576 FROM information_schema.tables WHERE table_schema = '$1'"; }
now() { date +%s.%N; }

echo "server: $(sql 'SELECT VERSION()'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

# --- load ---
t0=$(now)
sysbench oltp_read_write "${SB[@]}" --threads="$(nproc)" prepare >"$WORK/sb-prepare.log"
t1=$(now)
"$BB" load --db "$DSN" --customers "$CUSTOMERS" --trade-days "$DAYS" --quiet >"$WORK/bb-load.log"
t2=$(now)
awk -v sm="$(data_mb sbtest)" -v st="$(echo "$t1 - $t0" | bc)" -v bm="$(data_mb bb)" -v bt="$(echo "$t2 - $t1" | bc)" \
    -v tb="$SB_TABLES" -v r="$SB_ROWS" -v c="$CUSTOMERS" -v d="$DAYS" 'BEGIN {
  printf "load  sysbench prepare %d x %d rows:          %7.1f MB in %6.1f s = %6.1f MB/s\n", tb, r, sm, st, sm / st
  printf "load  brokerbench %d customers x %d days:     %7.1f MB in %6.1f s = %6.1f MB/s (with its indexes, keys and ANALYZE)\n", c, d, bm, bt, bm / bt
  printf "load  ratio brokerbench / sysbench: %.2f\n", (bm / bt) / (sm / st)
}'

# cpu_of PID: the process's CPU seconds so far.
HZ=$(getconf CLK_TCK)
cpu_of() { awk -v hz="$HZ" '{printf "%.3f", ($14 + $15) / hz}' "/proc/$1/stat"; }

# --- run: sysbench ---
sysbench oltp_read_write "${SB[@]}" --threads="$CONNS" --time=$((SECS + WARMUP + 2)) run >"$WORK/sb-run.log" &
SBPID=$!
sleep "$WARMUP"; c0=$(cpu_of $SBPID); t0=$(now)
sleep "$SECS"; c1=$(cpu_of $SBPID); t1=$(now)
wait $SBPID
SB_QPS=$(grep -oP 'queries:\s+\d+\s+\(\K[0-9.]+' "$WORK/sb-run.log")
SB_TPS=$(grep -oP 'transactions:\s+\d+\s+\(\K[0-9.]+' "$WORK/sb-run.log")

# --- run: brokerbench --- (the connections: users plus the emulator's workers)
USERS=$(( CONNS > 2 ? CONNS - 2 : 1 ))
"$BB" run --db "$DSN" --users "$USERS" --step "$((SECS + 4))s" --warmup "${WARMUP}s" --no-check --quiet --out "$WORK/bb.json" >"$WORK/bb-run.log" 2>&1 &
BBPID=$!
sleep "$((WARMUP + 2))"; b0=$(cpu_of $BBPID); u0=$(now)
sleep "$SECS"; b1=$(cpu_of $BBPID); u1=$(now)
wait $BBPID
BB_SPS=$(jq '.steps[0].statements / .steps[0].measured_s' "$WORK/bb.json")
BB_TPS=$(jq '.steps[0].tps' "$WORK/bb.json")
BB_CONNS=$(jq '.options.connections_used' "$WORK/bb.json")

awk -v sc="$(echo "$c1 - $c0" | bc)" -v sw="$(echo "$t1 - $t0" | bc)" -v sq="$SB_QPS" -v stps="$SB_TPS" \
    -v bc="$(echo "$b1 - $b0" | bc)" -v bw="$(echo "$u1 - $u0" | bc)" -v bq="$BB_SPS" -v btps="$BB_TPS" \
    -v conns="$CONNS" -v bconns="$BB_CONNS" 'BEGIN {
  s = sc / (sq * sw) * 1e6; b = bc / (bq * bw) * 1e6
  printf "run   sysbench oltp_read_write, %d threads:  %7.0f tps %8.0f statements/s, client %5.1f us CPU per statement\n", conns, stps, sq, s
  printf "run   brokerbench, %d connections:          %7.0f tps %8.0f statements/s, client %5.1f us CPU per statement\n", bconns, btps, bq, b
  printf "run   ratio brokerbench / sysbench (client CPU per statement): %.2f\n", b / s
}'
