#!/usr/bin/env bash
# verdict-aa-ab.sh: what compare's verdict says about two sides that are the same system
# (A/A) and about two that differ by a known amount (A/B), on the managed PostgreSQL.
#
#   A  the managed cluster on a loop device, capped at half the loaded database
#      (--server-memory), USERS users, STEP steps after WARMUP
#   B  the same cluster, started and run the same way: an A/A pair
#   C  the same cluster started inside a cgroup v1 blkio group that caps the loop device
#      at SLOW_IOPS reads and SLOW_IOPS writes per second: an A/B pair with A
#
# Each side runs REPEATS times; ORDER=interleaved (default) runs A B C A B C ..., so a
# drift of the host lands on every side alike, each run settling first (--settle) as the
# server was just started; ORDER=sequential runs side A as one `run --repeat REPEATS`
# (which settles before its first repeat), then B, then C, the way a user who tests one
# controller after the other would, and compare should then name any drift instead of
# calling it a difference. The loop device reads its image with direct I/O, so the
# "disk" is the machine's disk and not the page cache holding the image. The script prints
# compare's verdict, interval and detectable difference on tps for A/A and A/C, and for
# one run a side (which must give no verdict).
#
# Needs root, losetup, mkfs.ext4, a free loop device, /sys/fs/cgroup/blkio, a memory
# cgroup, Go and the PostgreSQL server binaries. Exits 77 with a SKIP line when the
# machine cannot do it.
#
# Usage: scripts/verdict-aa-ab.sh [-o OUTDIR]
# Environment (defaults in brackets): USERS [8]  STEP [60s]  WARMUP [10s]  REPEATS [3]
#   CUSTOMERS [1000]  SLOW_IOPS [30]  ORDER [interleaved]  SIZE [4G]  SIDES [A B C]
#   SETTLE [5m]: run's --settle budget
#   DIRECT_IO [on]: off lets the loop device read its image through the page cache, so
#     the "disk" is memory copied by the loop's thread and the noise is the CPU's
#   BROKERBENCH [built from this tree]  KEEP [0]: keep the work dir
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${OUT:-$PWD/verdict-out}"
while getopts "o:h" opt; do
  case "$opt" in
    o) OUT="$OPTARG" ;;
    h) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
USERS="${USERS:-8}"
STEP="${STEP:-60s}"
WARMUP="${WARMUP:-10s}"
REPEATS="${REPEATS:-3}"
CUSTOMERS="${CUSTOMERS:-1000}"
SLOW_IOPS="${SLOW_IOPS:-30}"
ORDER="${ORDER:-interleaved}"
SIZE="${SIZE:-4G}"
KEEP="${KEEP:-0}"
SIDES="${SIDES:-A B C}"
SETTLE="${SETTLE:-5m}"
DIRECT_IO="${DIRECT_IO:-on}"

skip() { echo "SKIP: $*" >&2; exit 77; }
say() { echo "verdict: $*" >&2; }

[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts, cgroup v1 blkio)"
for t in losetup mkfs.ext4 mount umount du; do
  command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
BLKIO=/sys/fs/cgroup/blkio
[ -w "$BLKIO/cgroup.procs" ] && [ -e "$BLKIO/blkio.throttle.read_iops_device" ] ||
  skip "no writable cgroup v1 blkio hierarchy at $BLKIO"
losetup -f >/dev/null 2>&1 || skip "no free loop device"
case "$ORDER" in interleaved|sequential) ;; *) echo "ORDER must be interleaved or sequential" >&2; exit 2 ;; esac

WORK="$(mktemp -d /tmp/bbverdict.XXXXXX)"
chmod 755 "$WORK"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
if [ -n "${BROKERBENCH:-}" ]; then
  BB="$BROKERBENCH"
else
  say "building brokerbench"
  (cd "$ROOT" && go build -o "$WORK/brokerbench" ./cmd/brokerbench)
  BB="$WORK/brokerbench"
fi

LOOP="" MNT="$WORK/disk" CG="" PG=""
cleanup() {
  set +e
  [ -n "$PG" ] && "$BB" pg stop --pgdata "$PG" >/dev/null 2>&1
  mountpoint -q "$MNT" && umount "$MNT"
  [ -n "$LOOP" ] && losetup -d "$LOOP"
  [ -n "$CG" ] && rmdir "$CG"
  if [ "$KEEP" = 1 ]; then say "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

truncate -s "$SIZE" "$WORK/disk.img"
LOOP="$(losetup -f --show --direct-io="$DIRECT_IO" "$WORK/disk.img")"
mkfs.ext4 -q -F "$LOOP"
mkdir -p "$MNT"
mount "$LOOP" "$MNT"
PG="$MNT/pgdata"
mkdir -p "$PG"
MAJMIN="$(printf '%d:%d' "0x$(stat -c %t "$LOOP")" "0x$(stat -c %T "$LOOP")")"
CG="$BLKIO/brokerbench-verdict-$$"
mkdir "$CG"
echo "$MAJMIN $SLOW_IOPS" > "$CG/blkio.throttle.read_iops_device"
echo "$MAJMIN $SLOW_IOPS" > "$CG/blkio.throttle.write_iops_device"

"$BB" pg start --pgdata "$PG" >/dev/null
say "loading $CUSTOMERS customers on $LOOP"
"$BB" load --pgdata "$PG" --customers "$CUSTOMERS" --quiet > "$OUT/load.txt"
"$BB" pg stop --pgdata "$PG"
CAP=$(( $(du -sb "$PG/base" | cut -f1) / 2 ))
say "server memory capped at $CAP bytes (half the loaded database)"

# start SIDE: start the cluster, inside the blkio group for side C.
start() {
  local start=("$BB" pg start --pgdata "$PG" --server-memory "$CAP")
  if [ "$1" = C ]; then
    bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$CG" "${start[@]}" >/dev/null
  else
    "${start[@]}" >/dev/null
  fi
}
RUN=(--users "$USERS" --step "$STEP" --warmup "$WARMUP" --settle "$SETTLE" --no-check --quiet)

# one SIDE K: start the cluster, run repeat K alone (settling first: the server was
# just started), stop it.
one() {
  local side="$1" k="$2"
  start "$side"
  say "side $side, repeat $k of $REPEATS"
  "$BB" run --pgdata "$PG" "${RUN[@]}" --label "side $side" --tag side="$side" \
    --out "$OUT/$side-r$k.json" > "$OUT/$side-r$k.txt"
  "$BB" pg stop --pgdata "$PG"
}

# all SIDE: start the cluster, run every repeat of the side as one run --repeat, stop it.
all() {
  local side="$1"
  start "$side"
  say "side $side, $REPEATS repeats"
  "$BB" run --pgdata "$PG" "${RUN[@]}" --repeat "$REPEATS" --label "side $side" --tag side="$side" \
    --out "$OUT/$side.json" > "$OUT/$side.txt"
  "$BB" pg stop --pgdata "$PG"
}

if [ "$ORDER" = interleaved ]; then
  for k in $(seq "$REPEATS"); do for s in $SIDES; do one "$s" "$k"; done; done
else
  for s in $SIDES; do all "$s"; done
fi

side() { local out=(); for k in $(seq "$REPEATS"); do out+=("$OUT/$1-r$k.json"); done; echo "${out[@]}"; }
show() {
  local title="$1"; shift
  echo "== $title"
  "$BB" compare "$@" > "$WORK/cmp.txt" || true
  # The headline, the notes (no verdict and why, the detectable difference) and each
  # step's tps row with its interval, detectable difference and verdict.
  grep -E "^[^ ].* at [0-9]+ users: |^note: |^warning: |^[0-9]+ users$|^    tps  " "$WORK/cmp.txt" | sed 's/^/  /' || true
}
has() { case " $SIDES " in *" $1 "*) return 0 ;; esac; return 1; }
echo "== settling before each side's first repeat"
for s in $SIDES; do
  for f in "$OUT/$s.txt" "$OUT/$s"-r*.txt; do
    [ -f "$f" ] && grep -E "settled in |not steady after " "$f" | sed "s|^ *|  $(basename "$f" .txt): |"
  done
done
if has A && has B; then
  # shellcheck disable=SC2046
  show "A/A, $REPEATS repeats a side ($ORDER)" $(side A) -- $(side B)
fi
if has A && has C; then
  # shellcheck disable=SC2046
  show "A/C, C capped at $SLOW_IOPS IOPS ($ORDER)" $(side A) -- $(side C)
fi
if has A && has B; then
  show "A/B, one run a side" "$OUT/A-r1.json" "$OUT/B-r1.json"
fi
say "result files in $OUT"
