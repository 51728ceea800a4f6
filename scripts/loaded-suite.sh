#!/usr/bin/env bash
# Runs the whole test suite several times in a row (three by default) while two
# CPU-bound processes keep both cores of a 2-core machine busy: the tests must hold on
# a busy machine, where timers fire late and every statement is slow, not only on a
# quiet one. Each run is the README's test command with -count=1, so nothing comes
# from the test cache, and -timeout 30m, since go test's default 10 minutes per
# package is too short for cmd/brokerbench under that load. The busy loops are stopped however the script ends.
#
#   scripts/loaded-suite.sh            # three runs under two busy loops
#   RUNS=1 BUSY=4 scripts/loaded-suite.sh
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-3}"
busy="${BUSY:-2}"

busy_pids=()
stop_busy() {
  for pid in "${busy_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${busy_pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  busy_pids=()
}
trap stop_busy EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$busy"); do
  (while :; do :; done) &
  busy_pids+=("$!")
done
echo "loaded-suite: $busy busy loops running (pids ${busy_pids[*]}), $(nproc) cores"

times=()
for run in $(seq "$runs"); do
  echo "loaded-suite: run $run of $runs"
  start=$(date +%s)
  if ! go tool gotestsum -- -count=1 -timeout 30m ./...; then
    echo "loaded-suite: run $run failed after $(($(date +%s) - start)) s" >&2
    exit 1
  fi
  times+=("$(($(date +%s) - start)) s")
  echo "loaded-suite: run $run passed in ${times[-1]}"
done
echo "loaded-suite: $runs runs passed under $busy busy loops: ${times[*]}"
