#!/usr/bin/env bash
# bench-driver.sh: is the load driver ever the bottleneck?
#
# 1. Client CPU per SQL statement: `brokerbench run` and `pgbench -S` (one prepared
#    primary-key SELECT per transaction, the lightest client there is) against the
#    same server with the same number of clients, one after the other in one
#    invocation. brokerbench's figure is its own CPU over a step's measured window
#    (the result file's driver.cpu_percent x measured_s) divided by the statements
#    it sent in that window; pgbench's is its user+system CPU divided by its
#    statements. Goal: brokerbench within 1.2x pgbench.
# 2. Peak RSS of `brokerbench run` with 300 users (think time 2.5 s) and with 10,000
#    users (think time, 100 connections). Goals: 100 MB and 400 MB.
#
# A benchmark, not a test: it prints figures. With no --db it starts a managed
# PostgreSQL in a temporary folder, loads 1,000 customers and 5 trade days, and
# removes it at the end. With --db the database must hold a brokerbench load;
# pgbench's tables (pgbench_*) are created in it and dropped afterwards.
#
# Usage: scripts/bench-driver.sh [--db URL] [--clients N] [--seconds S] [--skip-rss]
set -euo pipefail

DB=""
CLIENTS=8
SECONDS_RUN=30
SKIP_RSS=0
while [ $# -gt 0 ]; do
	case "$1" in
	--db) DB="$2"; shift 2 ;;
	--clients) CLIENTS="$2"; shift 2 ;;
	--seconds) SECONDS_RUN="$2"; shift 2 ;;
	--skip-rss) SKIP_RSS=1; shift ;;
	-h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
	*) echo "bench-driver.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
for tool in go pgbench jq /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "bench-driver.sh: needs $tool" >&2; exit 2; }
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
BB="$TMP/brokerbench"
MANAGED=""
cleanup() {
	if [ -n "$DB" ]; then pgbench -i -I d "$DB" >/dev/null 2>&1 || true; fi
	if [ -n "$MANAGED" ]; then "$BB" pg stop --pgdata "$MANAGED" >/dev/null 2>&1 || true; fi
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "building brokerbench"
(cd "$ROOT" && go build -o "$BB" ./cmd/brokerbench)

if [ -z "$DB" ]; then
	MANAGED="$TMP/pgdata"
	echo "starting a managed PostgreSQL and loading 1,000 customers (about a minute)"
	DB=$("$BB" pg start --pgdata "$MANAGED" 2>/dev/null | grep '^postgres://' | tail -1)
	"$BB" load --db "$DB" --customers 1000 --trade-days 5 -q >/dev/null
fi

echo "pgbench tables (scale 10)"
pgbench -i -q -s 10 "$DB" >/dev/null 2>&1

WARMUP=3
echo "brokerbench run: $CLIENTS users, ${SECONDS_RUN}s measured"
"$BB" run --db "$DB" --users "$CLIENTS" --step "$((SECONDS_RUN + WARMUP))s" --warmup "${WARMUP}s" \
	--no-check --io-device none --quiet --out "$TMP/bb.json" >/dev/null
BB_CPU=$(jq '.steps[0] | .driver.cpu_percent / 100 * .measured_s' "$TMP/bb.json")
BB_STMTS=$(jq '.steps[0].statements' "$TMP/bb.json")
BB_TPS=$(jq '.steps[0].tps' "$TMP/bb.json")

echo "pgbench -S: $CLIENTS clients, ${SECONDS_RUN}s"
JOBS=$(( CLIENTS < $(nproc) ? CLIENTS : $(nproc) ))
/usr/bin/time -f '%U %S' -o "$TMP/pgbench.time" \
	pgbench -n -S -M prepared -c "$CLIENTS" -j "$JOBS" -T "$SECONDS_RUN" "$DB" >"$TMP/pgbench.out" 2>&1
PG_STMTS=$(awk '/number of transactions actually processed/ {split($NF, a, "/"); print a[1]}' "$TMP/pgbench.out")
PG_CPU=$(awk '{print $1 + $2}' "$TMP/pgbench.time")

awk -v bc="$BB_CPU" -v bs="$BB_STMTS" -v bt="$BB_TPS" -v pc="$PG_CPU" -v ps="$PG_STMTS" -v n="$CLIENTS" 'BEGIN {
	bu = bc / bs * 1e6; pu = pc / ps * 1e6
	printf "\nclient CPU per SQL statement, %d clients, same server\n", n
	printf "  %-22s %10s %12s %14s\n", "client", "CPU s", "statements", "CPU us/stmt"
	printf "  %-22s %10.2f %12d %14.1f   (%.0f tps)\n", "brokerbench run", bc, bs, bu, bt
	printf "  %-22s %10.2f %12d %14.1f\n", "pgbench -S -M prepared", pc, ps, pu
	printf "  ratio brokerbench / pgbench: %.2fx (goal <= 1.2x)\n", bu / pu
}'

echo
echo "the driver's own cost per transaction (pacing, dealing, timing, recording; no database):"
(cd "$ROOT" && go test -run '^$' -bench UserLoopOverhead -benchtime 200000x ./driver | grep '^Benchmark')

if [ "$SKIP_RSS" = 1 ]; then exit 0; fi

rss() { # users think connections
	/usr/bin/time -f '%M' -o "$TMP/rss" "$BB" run --db "$DB" --users "$1" --think "$2" ${3:+--connections "$3"} \
		--step 40s --warmup 10s --no-check --io-device none --quiet --out "$TMP/rss.json" >/dev/null
	echo "$(( $(cat "$TMP/rss") / 1024 )) MB peak RSS, tps $(jq '.steps[0].tps' "$TMP/rss.json"), driver $(jq -c '.steps[0].driver' "$TMP/rss.json")"
}
echo
echo "peak RSS, 300 users, think 2.5s (goal 100 MB): $(rss 300 2.5s)"
echo "peak RSS, 10000 users, think 2.5s, 100 connections (goal 400 MB): $(rss 10000 2.5s 100)"
