#!/usr/bin/env bash
# layouts.sh: the same short ramp on two emulated disk layouts, then compare them.
#
#   fast  the managed PostgreSQL's --pgdata on a RAM block device (zram0), or on a loop
#         device without limits when zram is unavailable or in use
#   slow  --pgdata on ext4 on a loop device, the server in a cgroup v1 blkio group that
#         caps the loop device at SLOW_IOPS reads and SLOW_IOPS writes per second
#
# (Why these mechanisms: they need no device-mapper and no cgroup v2 io.max, which
# many test machines and containers lack.)
#
# Both layouts get identical data: it is loaded once on the fast layout and copied to
# the slow one while the server is stopped. The result files carry the storage figures
# of each step (steps[].io, source diskstats on zram0 / loopN), so `compare` shows the
# slower layout's lower tps next to its IOPS and latency. Then `brokerbench disk` runs the
# storage profiles on each layout (fio in the same throttle on the slow one), and the
# closing compare holds both layouts' OLTP runs and profile runs.
#
# Needs root, losetup, mkfs.ext4, a free loop device, /sys/fs/cgroup/blkio, Go and the
# PostgreSQL server binaries. Exits 77 (the conventional "skipped" code) with a SKIP line
# when the machine cannot do it, 0 on success, 1 on failure.
#
# Usage: scripts/layouts.sh [-o OUTDIR]
# Environment (defaults in brackets):
#   USERS [2,8]  STEP [40s]  WARMUP [10s]  CUSTOMERS [1000]  SLOW_IOPS [200]
#   SIZE [4G] (each device)  BROKERBENCH [built from this tree]  KEEP [0]: keep work dir
#   FAST_ON [zram]: loop puts the fast layout on an unthrottled loop device even when zram0 is free
#   DISK [1]: also run `brokerbench disk` on each layout (when fio is installed), with
#   DISK_PROFILES [streaming,restore,database,file-server,wal]  DISK_DEPTHS [1,4,16,64]
#   DISK_SIZE [512MB] (the test file)  DISK_RAMP [3s]  DISK_MEASURE [10s]
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${OUT:-$PWD/layouts-out}"
while getopts "o:h" opt; do
  case "$opt" in
    o) OUT="$OPTARG" ;;
    h) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
USERS="${USERS:-2,8}"
STEP="${STEP:-40s}"
WARMUP="${WARMUP:-10s}"
CUSTOMERS="${CUSTOMERS:-1000}"
SLOW_IOPS="${SLOW_IOPS:-200}"
SIZE="${SIZE:-4G}"
KEEP="${KEEP:-0}"
DISK="${DISK:-1}"
FAST_ON="${FAST_ON:-zram}"
DISK_PROFILES="${DISK_PROFILES:-streaming,restore,database,file-server,wal}"
DISK_DEPTHS="${DISK_DEPTHS:-1,4,16,64}"
DISK_SIZE="${DISK_SIZE:-512MB}"
DISK_RAMP="${DISK_RAMP:-3s}"
DISK_MEASURE="${DISK_MEASURE:-10s}"

skip() { echo "SKIP: $*" >&2; exit 77; }
say() { echo "layouts: $*" >&2; }

# ---- what the machine must offer --------------------------------------------------
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts, cgroup v1 blkio)"
for t in losetup mkfs.ext4 mount umount; do
  command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
BLKIO=/sys/fs/cgroup/blkio
[ -w "$BLKIO/cgroup.procs" ] && [ -e "$BLKIO/blkio.throttle.write_iops_device" ] ||
  skip "no writable cgroup v1 blkio hierarchy at $BLKIO (cgroup v2 io.max is not used: many test machines lack it)"
losetup -f >/dev/null 2>&1 || skip "no free loop device"

WORK="$(mktemp -d /tmp/bblayouts.XXXXXX)"
chmod 755 "$WORK" # the server runs as postgres and must reach --pgdata below it
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

if [ -n "${BROKERBENCH:-}" ]; then
  BB="$BROKERBENCH"
else
  command -v go >/dev/null 2>&1 || skip "go is not installed and BROKERBENCH is not set"
  say "building brokerbench"
  (cd "$ROOT" && go build -o "$WORK/brokerbench" ./cmd/brokerbench)
  BB="$WORK/brokerbench"
fi
if "$BB" run --help 2>&1 | grep -q "not built yet"; then
  skip "brokerbench run is not built yet in this tree"
fi

# ---- teardown of everything made below, in reverse, whatever happened --------------
LOOPS=() MOUNTS=() PGDATAS=() CGROUPS=() ZRAM=""
cleanup() {
  set +e
  for d in "${PGDATAS[@]}"; do "$BB" pg stop --pgdata "$d" >/dev/null 2>&1; done
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
  for l in "${LOOPS[@]}"; do losetup -d "$l"; done
  [ -n "$ZRAM" ] && echo 1 > "/sys/block/$ZRAM/reset"
  for c in "${CGROUPS[@]}"; do rmdir "$c"; done
  if [ "$KEEP" = 1 ]; then say "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# mkfs_mount DEVICE DIR: an ext4 filesystem the postgres user can use.
mkfs_mount() {
  mkfs.ext4 -q -F "$1"
  mkdir -p "$2"
  mount "$1" "$2"
  MOUNTS+=("$2")
  mkdir -p "$2/pgdata"
}

# major:minor of a block device, for the throttle files.
majmin() { printf '%d:%d' "0x$(stat -c %t "$1")" "0x$(stat -c %T "$1")"; }

# ---- fast layout: zram0 when it is free, else an unthrottled loop device -----------
FAST_MNT="$WORK/fast"
if [ "$FAST_ON" = zram ] && [ -e /sys/block/zram0/disksize ] && [ "$(cat /sys/block/zram0/disksize)" = 0 ]; then
  echo "$SIZE" > /sys/block/zram0/disksize
  ZRAM=zram0
  FAST_DEV=/dev/zram0
else
  truncate -s "$SIZE" "$WORK/fast.img"
  FAST_DEV="$(losetup -f --show "$WORK/fast.img")"
  LOOPS+=("$FAST_DEV")
fi
mkfs_mount "$FAST_DEV" "$FAST_MNT"
say "fast layout: $FAST_DEV on $FAST_MNT"

# ---- slow layout: a loop device throttled for the server's cgroup ------------------
SLOW_MNT="$WORK/slow"
truncate -s "$SIZE" "$WORK/slow.img"
SLOW_DEV="$(losetup -f --show "$WORK/slow.img")"
LOOPS+=("$SLOW_DEV")
mkfs_mount "$SLOW_DEV" "$SLOW_MNT"
CG="$BLKIO/brokerbench-slow-$$"
mkdir "$CG"
CGROUPS+=("$CG")
echo "$(majmin "$SLOW_DEV") $SLOW_IOPS" > "$CG/blkio.throttle.write_iops_device"
echo "$(majmin "$SLOW_DEV") $SLOW_IOPS" > "$CG/blkio.throttle.read_iops_device"
say "slow layout: $SLOW_DEV ($(majmin "$SLOW_DEV")) on $SLOW_MNT, capped at $SLOW_IOPS r + $SLOW_IOPS w IOPS"

# ---- load once, copy the stopped cluster to the slow layout ------------------------
FAST_PG="$FAST_MNT/pgdata"
SLOW_PG="$SLOW_MNT/pgdata"
PGDATAS+=("$FAST_PG")
"$BB" pg start --pgdata "$FAST_PG" >/dev/null
say "loading $CUSTOMERS customers"
"$BB" load --pgdata "$FAST_PG" --customers "$CUSTOMERS" --quiet > "$OUT/load.txt"
"$BB" pg stop --pgdata "$FAST_PG"
cp -a "$FAST_PG/." "$SLOW_PG/"
chown --reference="$FAST_PG" "$SLOW_PG" && chmod --reference="$FAST_PG" "$SLOW_PG"
sync

# run_layout NAME PGDATA DEVICE [CGROUP]: start the server (inside CGROUP when given, so
# every backend inherits the throttle), run the ramp, stop the server.
run_layout() {
  local name="$1" pgdata="$2" dev="$3" cg="${4:-}"
  PGDATAS+=("$pgdata")
  if [ -n "$cg" ]; then
    bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$cg" "$BB" pg start --pgdata "$pgdata" >/dev/null
  else
    "$BB" pg start --pgdata "$pgdata" >/dev/null
  fi
  say "$name: ramp --users $USERS --step $STEP --warmup $WARMUP"
  "$BB" run --pgdata "$pgdata" --users "$USERS" --step "$STEP" --warmup "$WARMUP" \
    --label "$name layout" --tag layout="$name" --tag device="$(basename "$dev")" \
    --out "$OUT/$name.json"
  "$BB" pg stop --pgdata "$pgdata"
}

run_layout fast "$FAST_PG" "$FAST_DEV"
run_layout slow "$SLOW_PG" "$SLOW_DEV" "$CG"

# disk_layout NAME MOUNT [CGROUP]: the storage profiles on the same layout, beside
# the server's folder (inside CGROUP when given, so fio is throttled as the server was).
disk_layout() {
  local name="$1" mnt="$2" cg="${3:-}"
  local args=(disk --dir "$mnt" --size "$DISK_SIZE" --profile "$DISK_PROFILES" --depths "$DISK_DEPTHS"
    --ramp "$DISK_RAMP" --measure "$DISK_MEASURE" --label "$name layout" --tag layout="$name" --out "$OUT/$name-disk.json")
  say "$name: storage profiles $DISK_PROFILES at $DISK_DEPTHS outstanding I/Os"
  if [ -n "$cg" ]; then
    bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$cg" "$BB" "${args[@]}"
  else
    "$BB" "${args[@]}"
  fi
}

if [ "$DISK" = 1 ] && command -v fio >/dev/null 2>&1; then
  disk_layout fast "$FAST_MNT"
  disk_layout slow "$SLOW_MNT" "$CG"
  say "results in $OUT/{fast,slow}.json and $OUT/{fast,slow}-disk.json"
  "$BB" compare "$OUT/fast.json" "$OUT/slow.json" "$OUT/fast-disk.json" "$OUT/slow-disk.json"
else
  [ "$DISK" = 1 ] && say "fio is not installed: no storage profiles (apt-get install fio)"
  say "results in $OUT/fast.json and $OUT/slow.json"
  "$BB" compare "$OUT/fast.json" "$OUT/slow.json"
fi
