#!/usr/bin/env bash
# bench-cpu.sh: how much CPU does the driver spend per transaction, against the server's?
#
# One invocation measures, on one managed PostgreSQL and one after the other:
#   brokerbench run at 8 and at 16 users, its frames sent from the client (--frames
#   client) and run by server routines (--frames server, docs/workload.md §13), and
#   pgbench -S -M prepared with 8 clients.
# For each it samples, at the same two instants inside the measured window:
#   client CPU  the driver's own process (/proc/PID/stat utime+stime)
#   server CPU  every server process: a cpuacct cgroup (v1) holding the postmaster and
#               its children when this machine has one (root), else the sum over
#               /proc of the postmaster's children (backends that exit in the window
#               are then missed: the cgroup is the figure to quote)
# and prints tps, client and server CPU per transaction and their ratio (goal: client
# at most 0.15x the server), then client CPU per SQL statement against pgbench -S.
# The machine may be shared and noisy: compare ratios within one invocation. The
# driver's write system calls per transaction (/proc/PID/io syscw) are printed too:
# one per round trip, they do not move with the machine's load as CPU times do
# (not shown for pgbench, whose libpq sends with send(2), which syscw does not count).
#
# The pgx floor: after each user level, scripts/pgxfloor runs as many connections of
# brokerbench's own pool, each sending round trips that carry brokerbench's measured
# statements per round trip, and nothing else: no inputs, checks, rows or recorder.
# Each statement returns one integer after counting --floor-series generate_series rows
# (several amounts, 20 s each), because the server's time per answer decides how often
# the driver's threads sleep and wake. Both are shown per client write (one a round
# trip): at the server work per round trip brokerbench's transactions need, the floor's
# client/server ratio is the least any pgx client can reach with brokerbench's round
# trips against this server (docs/driver-cpu.md, "Current figures").
#
# --frames "client server" (the default) picks the modes measured; the server mode's
# targets are client/srv at most 0.15 at 8 users, writes (round trips) per transaction
# no more than the frames it runs, and tps no lower than the client mode's: the
# summary prints each mode's figures side by side.
#
# --baseline REV also builds brokerbench at git revision REV (git archive, no
# checkout) and measures it in the same invocation, right before the working tree's
# build, so a change is judged before/after on the same server in the same minutes.
#
# The cluster is kept in --pgdata (default: a temporary folder, removed at the end),
# stopped at the end unless it was running before;
# a kept folder that already holds a brokerbench load is reused, else it is loaded with
# --customers (1,000) x 5 trade days. A benchmark, not a test: it prints figures.
#
# Usage: scripts/bench-cpu.sh [--pgdata DIR] [--seconds S] [--warmup S]
#        [--customers N] [--baseline REV] [--users "8 16"] [--floor-series "0 500 1000 2000"]
#        [--frames "client server"]
set -euo pipefail

PGDATA_DIR=""
SECONDS_RUN=40
WARMUP=5
CUSTOMERS=1000
BASELINE=""
USERS="8 16"
PGBENCH_CLIENTS=8
FLOOR_SERIES="0 500 1000 2000"
FRAMES="client server"
FLOOR_SECONDS=20
# Seconds each load runs past the sampled window, so an overslept last sample on a busy
# machine still finds the process running.
TAIL=5
while [ $# -gt 0 ]; do
	case "$1" in
	--pgdata) PGDATA_DIR="$2"; shift 2 ;;
	--seconds) SECONDS_RUN="$2"; shift 2 ;;
	--warmup) WARMUP="$2"; shift 2 ;;
	--customers) CUSTOMERS="$2"; shift 2 ;;
	--baseline) BASELINE="$2"; shift 2 ;;
	--users) USERS="$2"; shift 2 ;;
	--floor-series) FLOOR_SERIES="$2"; shift 2 ;;
	--frames) FRAMES="$2"; shift 2 ;;
	-h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
	*) echo "bench-cpu.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
for tool in go jq git; do
	command -v "$tool" >/dev/null || { echo "bench-cpu.sh: needs $tool" >&2; exit 2; }
done
command -v pgbench >/dev/null || command -v /usr/lib/postgresql/15/bin/pgbench >/dev/null ||
	{ echo "bench-cpu.sh: needs pgbench" >&2; exit 2; }
if [ "$SECONDS_RUN" -lt 6 ]; then echo "bench-cpu.sh: --seconds must be at least 6" >&2; exit 2; fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATH=$PATH:/usr/lib/postgresql/15/bin
TMP=$(mktemp -d)
chmod 755 "$TMP" # the managed cluster runs as the postgres user when we are root; it must reach its folder
BB="$TMP/brokerbench"
if [ -z "$PGDATA_DIR" ]; then PGDATA_DIR="$TMP/pgdata"; fi
CG=""
DB=""
STARTED=0
cleanup() {
	if [ -n "$DB" ]; then pgbench -i -I d "$DB" >/dev/null 2>&1 || true; fi
	# The script stops the server it started (a kept --pgdata keeps its folder, not a
	# running server), and leaves one it found running as it was.
	if [ "$STARTED" = 1 ]; then "$BB" pg stop --pgdata "$PGDATA_DIR" >/dev/null 2>&1 || true; fi
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		# Hand the server's processes back to the root group so the group can go.
		while read -r p; do echo "$p" >/sys/fs/cgroup/cpuacct/cgroup.procs 2>/dev/null || true; done <"$CG/cgroup.procs"
		rmdir "$CG" 2>/dev/null || true
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "building brokerbench and pgxfloor (working tree)"
(cd "$ROOT" && go build -o "$BB" ./cmd/brokerbench && go build -o "$TMP/pgxfloor" ./scripts/pgxfloor)
BUILDS="current=$BB"
if [ -n "$BASELINE" ]; then
	echo "building brokerbench at $BASELINE"
	mkdir "$TMP/base"
	(cd "$ROOT" && git archive "$BASELINE") | tar -x -C "$TMP/base"
	(cd "$TMP/base" && go build -o "$TMP/brokerbench-base" ./cmd/brokerbench)
	BUILDS="baseline=$TMP/brokerbench-base $BUILDS"
fi

if ! "$BB" pg status --pgdata "$PGDATA_DIR" >/dev/null 2>&1; then STARTED=1; fi
if ! DB=$("$BB" pg start --pgdata "$PGDATA_DIR" 2>"$TMP/pg-start.log" | grep -o 'postgres://.*' | tail -1) || [ -z "$DB" ]; then
	echo "bench-cpu: the managed PostgreSQL did not start:" >&2
	cat "$TMP/pg-start.log" >&2
	exit 1
fi
if ! psql "$DB" -Atc 'SELECT 1 FROM bb_load' 2>/dev/null | grep -q 1; then
	echo "loading $CUSTOMERS customers x 5 trade days into $PGDATA_DIR"
	"$BB" load --db "$DB" --customers "$CUSTOMERS" --trade-days 5 -q >/dev/null
fi
echo "pgbench tables (scale 10)"
pgbench -i -q -s 10 "$DB" >/dev/null 2>&1

POSTMASTER=$(head -1 "$(find "$PGDATA_DIR" -maxdepth 2 -name postmaster.pid | head -1)")
server_pids() { echo "$POSTMASTER"; pgrep -P "$POSTMASTER" || true; }
if [ -w /sys/fs/cgroup/cpuacct ] && mkdir -p "/sys/fs/cgroup/cpuacct/bb-server-$$" 2>/dev/null; then
	CG="/sys/fs/cgroup/cpuacct/bb-server-$$"
	# Children forked later (backends) inherit the group.
	for p in $(server_pids); do echo "$p" >"$CG/cgroup.procs"; done
	SERVER_SOURCE="cpuacct cgroup"
else
	SERVER_SOURCE="/proc of the postmaster's children (exited backends missed)"
fi
TICK=$(getconf CLK_TCK)
# CPU seconds of one process, from /proc/PID/stat (fields 14 and 15, after the
# parenthesised command name).
proc_cpu() { awk -v t="$TICK" '{sub(/^.*\) /, ""); printf "%.4f\n", ($12 + $13) / t}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Write system calls of one process so far (one per round trip it sends).
proc_writes() { awk '/^syscw:/ {print $2}' "/proc/$1/io" 2>/dev/null || echo 0; }
server_cpu() {
	if [ -n "$CG" ]; then
		awk '{printf "%.4f\n", $1 / 1e9}' "$CG/cpuacct.usage"
	else
		local s=0
		for p in $(server_pids); do s=$(awk -v a="$s" -v b="$(proc_cpu "$p")" 'BEGIN {print a + b}'); done
		echo "$s"
	fi
}
now() { date +%s.%N; }

# measure PID [START LENGTH]: sleeps into the window, then prints "seconds clientCPU
# serverCPU clientWrites" over the window [START, START+LENGTH] of the process's life
# (default [warmup+1, warmup+seconds-1]).
measure() {
	local pid=$1 start=${2:-$((WARMUP + 1))} length=${3:-$((SECONDS_RUN - 2))} t0 t1 c0 c1 s0 s1 w0 w1
	sleep "$start"
	t0=$(now); c0=$(proc_cpu "$pid"); s0=$(server_cpu); w0=$(proc_writes "$pid")
	sleep "$length"
	t1=$(now); c1=$(proc_cpu "$pid"); s1=$(server_cpu); w1=$(proc_writes "$pid")
	if [ ! -r "/proc/$pid/stat" ]; then
		# A busy machine overslept the window past the process's end: its CPU reads 0.
		echo "bench-cpu.sh: the process ended before its window closed (machine too busy?): run again" >&2
		exit 1
	fi
	awk -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" -v s0="$s0" -v s1="$s1" -v w0="$w0" -v w1="$w1" \
		'BEGIN {printf "%.3f %.4f %.4f %d\n", t1 - t0, c1 - c0, s1 - s0, w1 - w0}'
}

ROWS="$TMP/rows"
: >"$ROWS"
row() { # label tps stmts_per_txn window clientCPU serverCPU clientWrites
	echo "$*" >>"$ROWS"
}

run_bb() { # label binary users [frames flag...]
	local label=$1 bin=$2 users=$3 out="$TMP/bb-$1-$3.json" pid m tps stmts
	shift 3
	echo "brokerbench ($label) $users users: ${WARMUP}s warm-up, ${SECONDS_RUN}s measured, ${TAIL}s more"
	"$bin" run --db "$DB" --users "$users" --step "$((SECONDS_RUN + WARMUP + TAIL))s" --warmup "${WARMUP}s" \
		--no-check --io-device none --quiet --out "$out" "$@" >/dev/null &
	pid=$!
	m=$(measure "$pid")
	wait "$pid"
	tps=$(jq '.steps[0].tps' "$out")
	stmts=$(jq '.steps[0].statements / (.steps[0].tps * .steps[0].measured_s)' "$out")
	row "brokerbench-$label,$users-users" "$tps" "$stmts" $m
}

run_floor() { # users: after the working tree's brokerbench row at this level
	local users=$1 k n pid m out
	# brokerbench's statements per round trip (client write) at this level.
	k=$(awk -v l="brokerbench-current,$users-users" '$1 == l {printf "%d\n", $3 * $2 * $4 / $7 + 0.5}' "$ROWS")
	[ "${k:-0}" -ge 1 ] || k=1
	# The server's time per answer sets how often the driver's threads sleep and wake,
	# a large part of a round trip's client cost; on a shared machine it does not follow
	# the statements' work closely enough to be dialled in, so the floor is measured at
	# several amounts of server work and read beside brokerbench's.
	for n in $FLOOR_SERIES; do
		out="$TMP/floor-$users-$n.out"
		echo "pgx floor, $users clients, $k statements a round trip, $n series rows each: 3s + ${FLOOR_SECONDS}s + ${TAIL}s"
		"$TMP/pgxfloor" --db "$DB" --clients "$users" --statements "$k" --series "$n" --seconds "$((FLOOR_SECONDS + 3 + TAIL))" >"$out" &
		pid=$!
		m=$(measure "$pid" 3 "$FLOOR_SECONDS")
		wait "$pid"
		# "tps" of this row is round trips per second, its "transaction" one round trip.
		row "pgx-floor,$users-clients,$k-per-trip,$n-series" "$(awk '{print $2 / $6}' "$out")" "$k" $m
	done
}

run_pgbench() {
	local jobs pid m tps
	jobs=$((PGBENCH_CLIENTS < $(nproc) ? PGBENCH_CLIENTS : $(nproc)))
	echo "pgbench -S -M prepared, $PGBENCH_CLIENTS clients: ${WARMUP}s + ${SECONDS_RUN}s + ${TAIL}s"
	pgbench -n -S -M prepared -c "$PGBENCH_CLIENTS" -j "$jobs" -T "$((SECONDS_RUN + WARMUP + TAIL))" "$DB" >"$TMP/pgbench.out" 2>&1 &
	pid=$!
	m=$(measure "$pid")
	wait "$pid"
	tps=$(awk '/^tps = / {print $3; exit}' "$TMP/pgbench.out")
	row "pgbench-S-M-prepared,$PGBENCH_CLIENTS-clients" "$tps" 1 $m
}

# The machine's load around the measurements: on a shared machine the ratios are read
# against it (docs/driver-cpu.md).
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
LOAD_START=$(loadavg)
START_UTC=$(date -u +%H:%M)
for u in $USERS; do
	for f in $FRAMES; do
		case "$f" in
		client) for b in $BUILDS; do run_bb "${b%%=*}" "${b#*=}" "$u"; done ;;
		# The working tree's build only: a baseline may predate --frames.
		server) run_bb server "$BB" "$u" --frames server ;;
		*) echo "bench-cpu.sh: --frames takes client and server, got $f" >&2; exit 2 ;;
		esac
	done
	if [[ " $FRAMES " == *" client "* ]]; then run_floor "$u"; fi
done
run_pgbench

echo
echo "measured $START_UTC-$(date -u +%H:%M) UTC on $(nproc) cores; load average (1, 5, 15 min) at the start $LOAD_START, at the end $(loadavg)"
echo "server CPU from: $SERVER_SOURCE; client CPU from the driver's /proc/PID/stat"
awk '
{ label = $1; tps = $2; spt = $3; w = $4; c = $5; s = $6; wr = $7
  n = tps * w; cu = c / n * 1e6; su = s / n * 1e6
  lab[NR] = label; T[NR] = tps; CU[NR] = cu; SU[NR] = su; ST[NR] = cu / spt; R[NR] = c / s
  SPT[NR] = spt; WT[NR] = wr / n
  if (label ~ /^pgbench/) pg = cu
  if (label ~ /^pgx-floor/) { split(label, f, /[,-]/); nf[f[3]]++; floor[f[3], nf[f[3]]] = NR }
  if (label ~ /^brokerbench-current/) { split(label, b, /[,-]/); cur[b[3]] = NR } }
END {
  printf "\n%-42s %9s %14s %14s %9s %16s %10s %12s\n", "load", "tps", "client us/txn", "server us/txn", "client/srv", "client us/stmt", "stmts/txn", "writes/txn"
  for (i = 1; i <= NR; i++)
    # pgbench (libpq) sends with send(2), which syscw does not count.
    printf "%-42s %9.0f %14.1f %14.1f %9.2f %16.1f %10.2f %12s\n", lab[i], T[i], CU[i], SU[i], R[i], ST[i], SPT[i], \
      (lab[i] ~ /^pgbench/ ? "-" : sprintf("%.2f", WT[i]))
  printf "\n(pgx-floor rows: tps is round trips per second, us/txn is per round trip)\n"
  printf "\nclient CPU per statement against pgbench -S (one statement per transaction):\n"
  for (i = 1; i <= NR; i++) if (lab[i] ~ /^brokerbench/)
    printf "  %-34s %.2fx\n", lab[i], ST[i] / pg
  printf "\nthe pgx floor at each level, per client write (one a round trip), beside brokerbench:\n"
  printf "  %-40s %16s %16s %11s\n", "", "server us/write", "client us/write", "client/srv"
  for (u in cur) { i = cur[u]
    printf "  %-40s %16.1f %16.1f %11.2f\n", lab[i], SU[i] / WT[i], CU[i] / WT[i], R[i]
    for (x = 1; x <= nf[u]; x++) { j = floor[u, x]
      printf "  %-40s %16.1f %16.1f %11.2f\n", lab[j], SU[j] / WT[j], CU[j] / WT[j], R[j] } }
  printf "goal: client/srv <= 0.15 for brokerbench\n"
  printf "\nframes on the client and on the server, by level:\n"
  printf "  %-8s %-8s %9s %11s %10s %12s\n", "users", "frames", "tps", "client/srv", "stmts/txn", "writes/txn"
  for (i = 1; i <= NR; i++) if (lab[i] ~ /^brokerbench-(current|server),/) {
    split(lab[i], b, /[,-]/)
    printf "  %-8s %-8s %9.0f %11.2f %10.2f %12.2f\n", b[3], (b[2] == "server" ? "server" : "client"), T[i], R[i], SPT[i], WT[i] }
  printf "server mode goals: client/srv <= 0.15 at 8 users; writes/txn <= the frames a transaction runs; tps >= client mode'"'"'s\n"
}' "$ROWS"
