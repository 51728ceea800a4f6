#!/usr/bin/env bash
# bench-disk.sh: does `brokerbench disk` add anything to what fio measures?
#
# The same job run three times each, alternating, on the same target: by
# `brokerbench disk` (one profile, one depth) and by fio directly with the exact job
# brokerbench generates (the options --list prints, plus the step's globals). Both
# get the same history: the test file (same name, same folder) is created, written
# in full with brokerbench's preconditioning job, measured and removed, so neither
# runs on a warmer file or under the other's writeback. The IOPS of the two are
# compared by their medians. Goal: within 3 % (brokerbench only starts fio and reads
# its JSON, so it should add nothing).
#
# A benchmark, not a test: it prints figures. It needs fio, jq and Go (or
# BROKERBENCH). The test file goes in --dir (default: a temporary folder under /tmp)
# and is removed at the end.
#
# Usage: scripts/bench-disk.sh [--dir DIR] [--profile NAME] [--depth N] [--size SIZE] [--seconds S] [--rounds N]
set -euo pipefail

DIR="" PROFILE=database DEPTH=16 SIZE=256MB SECS=10 ROUNDS=3
while [ $# -gt 0 ]; do
	case "$1" in
	--dir) DIR="$2"; shift 2 ;;
	--profile) PROFILE="$2"; shift 2 ;;
	--depth) DEPTH="$2"; shift 2 ;;
	--size) SIZE="$2"; shift 2 ;;
	--seconds) SECS="$2"; shift 2 ;;
	--rounds) ROUNDS="$2"; shift 2 ;;
	-h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
	*) echo "bench-disk.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
for tool in fio jq; do
	command -v "$tool" >/dev/null || { echo "bench-disk.sh: needs $tool" >&2; exit 2; }
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/bench-disk.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
[ -n "$DIR" ] || DIR="$WORK/target"
mkdir -p "$DIR"
if [ -n "${BROKERBENCH:-}" ]; then BB="$BROKERBENCH"; else
	(cd "$ROOT" && go build -o "$WORK/brokerbench" ./cmd/brokerbench)
	BB="$WORK/brokerbench"
fi

# fio's job, as brokerbench makes it: the profile's options at the depth, and the
# globals of every step (the --list footer), on a file fio lays out itself.
FILE="$DIR/brokerbench-disk.dat"
BYTES=$(numfmt --from=iec "${SIZE%B}")
JOB="$WORK/job.fio"
{
	echo "[global]"
	printf '%s\n' "filename=$FILE" "size=$BYTES" direct=1 time_based ramp_time=2 "runtime=$SECS" randseed=1 \
		norandommap group_reporting percentile_list=50:95:99:99.9
	echo "[$PROFILE]"
	"$BB" disk --list | awk -v p="$PROFILE" '$1 == p":" && NR > 1 {sub(/^ *[^:]*: /, ""); print; exit}' |
		tr ' ' '\n' | sed "s/{depth}/$DEPTH/g"
} > "$JOB"
echo "fio job:" && sed 's/^/  /' "$JOB"
# brokerbench's preconditioning (diskprofile.PreconditionJob).
precondition() {
	fio --output-format=json --output="$WORK/pre.json" --name=precondition --filename="$FILE" --size="$BYTES" \
		--rw=write --bs=1m --ioengine=libaio --iodepth=4 --direct=1 --end_fsync=1 --refill_buffers >/dev/null
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
: > "$WORK/bb" ; : > "$WORK/fio"
for i in $(seq "$ROUNDS"); do
	"$BB" disk --dir "$DIR" --size "$SIZE" --profile "$PROFILE" --depths "$DEPTH" --ramp 2s --measure "${SECS}s" \
		--out "$WORK/bb-$i.json" --quiet >/dev/null
	jq '.disk.steps[0].iops' "$WORK/bb-$i.json" >> "$WORK/bb"
	precondition
	fio --output-format=json --output="$WORK/fio-$i.json" "$JOB" >/dev/null
	rm -f "$FILE"
	jq '.jobs[0].read.iops + .jobs[0].write.iops' "$WORK/fio-$i.json" >> "$WORK/fio"
	echo "round $i: brokerbench $(tail -1 "$WORK/bb") IOPS, fio $(tail -1 "$WORK/fio") IOPS"
done
BBM=$(median < "$WORK/bb") FIOM=$(median < "$WORK/fio")
awk -v b="$BBM" -v f="$FIOM" -v p="$PROFILE" -v d="$DEPTH" 'BEGIN {
	diff = (b - f) / f * 100
	printf "%s at %d outstanding: brokerbench %.0f IOPS, fio %.0f IOPS (medians): %+.1f %% (goal: within 3 %%) %s\n",
		p, d, b, f, diff, (diff < 3 && diff > -3) ? "OK" : "OVER"
}'
