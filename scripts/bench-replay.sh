#!/usr/bin/env bash
# bench-replay.sh: does `brokerbench replay --speed 2` halve a replay's duration?
#
# One trace, replayed on the same target file at --speed 1 and at --speed 2,
# alternating, ROUNDS times each, and the medians side by side: the replay's duration
# (fio's runtime), its ratio to the captured duration, the IOPS achieved in percent
# of the captured rate, and how far behind the trace's timestamps it fell. Goal:
# --speed 2 takes about half the time of --speed 1 (ratio 0.45 to 0.55) while both
# replay every request.
#
# The trace is made here, in fio's iolog version 3 as `brokerbench capture` writes it:
# REQUESTS requests, one every INTERVAL microseconds (5 s at the defaults), two reads
# in three, 4k and 16k, over the first 64 MiB. The gaps are long on purpose: fio
# sleeps each request's delay and makes up an oversleep only when it is shorter than
# the next gap, so on a busy machine a trace of 1 ms gaps falls ever further behind
# at any speed and the ratio measures the machine (--interval 1000 shows it). Give --trace FOLDER|FILE to use a real
# capture instead (its target file must then fit its offsets: --span maps them).
#
# The target must keep the trace's pace at --speed 2, or both speeds measure the
# target instead of the replay: as root the target is a loop device of our own over a
# sparse file (its I/O served from memory), removed at the end; otherwise, or with
# --dir DIR, a file in DIR (default a temporary folder under /tmp), whose disk may be
# the bottleneck (the script says so when the replays fall behind).
#
# A benchmark, not a test: it prints figures. It needs fio, jq and Go (or BROKERBENCH).
#
# Usage: scripts/bench-replay.sh [--trace PATH] [--dir DIR] [--requests N] [--interval US] [--rounds N] [--depth N]
set -euo pipefail

TRACE="" DIR="" REQUESTS=200 INTERVAL=25000 ROUNDS=3 DEPTH=8
while [ $# -gt 0 ]; do
	case "$1" in
	--trace) TRACE="$2"; shift 2 ;;
	--dir) DIR="$2"; shift 2 ;;
	--requests) REQUESTS="$2"; shift 2 ;;
	--interval) INTERVAL="$2"; shift 2 ;;
	--rounds) ROUNDS="$2"; shift 2 ;;
	--depth) DEPTH="$2"; shift 2 ;;
	-h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
	*) echo "bench-replay.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
for tool in fio jq; do
	command -v "$tool" >/dev/null || { echo "bench-replay.sh: needs $tool" >&2; exit 2; }
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/bench-replay.XXXXXX)
LOOP=""
cleanup() { [ -z "$LOOP" ] || losetup -d "$LOOP"; rm -rf "$WORK"; [ -z "${TARGET:-}" ] || [ -n "$LOOP" ] || rm -f "$TARGET"; }
trap cleanup EXIT
if [ -n "${BROKERBENCH:-}" ]; then BB="$BROKERBENCH"; else
	(cd "$ROOT" && go build -o "$WORK/brokerbench" ./cmd/brokerbench)
	BB="$WORK/brokerbench"
fi

if [ -z "$TRACE" ]; then
	TRACE="$WORK/trace.iolog"
	awk -v n="$REQUESTS" -v every="$INTERVAL" 'BEGIN {
		print "fio version 3 iolog"; print "0 /dev/captured add"; print "0 /dev/captured open"
		for (i = 0; i < n; i++) {
			act = (i % 3 == 0) ? "write" : "read"; size = (i % 4 == 0) ? 16384 : 4096
			printf "%d /dev/captured %s %d %d\n", 1000 + i * every, act, (i * 7919 % 16000) * 4096, size
		}
		printf "%d /dev/captured close\n", 1000 + n * every
	}' > "$TRACE"
fi
if [ -z "$DIR" ] && [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	truncate -s 1G "$WORK/target.img"
	LOOP=$(losetup -f --show "$WORK/target.img")
	TARGET="$LOOP"
	DEVICE_ARGS=(--allow-device-writes "$LOOP")
else
	[ -n "$DIR" ] || DIR="$WORK/target"
	mkdir -p "$DIR"
	TARGET="$DIR/brokerbench-replay.dat"
	DEVICE_ARGS=()
fi

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
for s in 1 2; do : > "$WORK/dur-$s"; : > "$WORK/ratio-$s"; : > "$WORK/ach-$s"; : > "$WORK/lag-$s"; : > "$WORK/rep-$s"; done
for i in $(seq "$ROUNDS"); do
	for s in 1 2; do
		"$BB" replay "$TRACE" --target "$TARGET" "${DEVICE_ARGS[@]}" --speed "$s" --depth "$DEPTH" --out "$WORK/r-$s-$i.json" --quiet >/dev/null
		jq -r '.disk.replay | "\(.replayed_s) \(.replayed_s / .captured_s) \(100 * .replayed_requests / .replayed_s / (.captured_requests / .captured_s)) \(.lag_p99_ms // 0) \(.replayed_requests) \(.captured_requests)"' \
			"$WORK/r-$s-$i.json" > "$WORK/one"
		read -r dur ratio ach lag rep cap < "$WORK/one"
		echo "$dur" >> "$WORK/dur-$s"; echo "$ratio" >> "$WORK/ratio-$s"; echo "$ach" >> "$WORK/ach-$s"
		echo "$lag" >> "$WORK/lag-$s"; echo "$rep/$cap" >> "$WORK/rep-$s"
		printf 'round %d, --speed %d: %.2fs (%.2f of captured), IOPS %.0f %% of captured, behind p99 %.0f ms, %s requests\n' \
			"$i" "$s" "$dur" "$ratio" "$ach" "$lag" "$rep/$cap"
	done
done
CAPTURED=$(jq -r '.disk.replay.captured_s' "$WORK/r-1-1.json")
D1=$(median < "$WORK/dur-1") D2=$(median < "$WORK/dur-2")
printf '\ntrace: %s requests over %.2fs captured; medians of %d rounds on %s\n' \
	"$(jq -r '.disk.replay.captured_requests' "$WORK/r-1-1.json")" "$CAPTURED" "$ROUNDS" "$TARGET"
printf '%-22s %12s %12s\n' "" "--speed 1" "--speed 2"
printf '%-22s %11.2fs %11.2fs\n' "duration" "$D1" "$D2"
printf '%-22s %12.2f %12.2f\n' "duration / captured" "$(median < "$WORK/ratio-1")" "$(median < "$WORK/ratio-2")"
printf '%-22s %10.0f %% %10.0f %%\n' "IOPS of captured" "$(median < "$WORK/ach-1")" "$(median < "$WORK/ach-2")"
printf '%-22s %9.0f ms %9.0f ms\n' "behind trace p99" "$(median < "$WORK/lag-1")" "$(median < "$WORK/lag-2")"
printf '%-22s %12s %12s\n' "requests (last round)" "$(tail -1 "$WORK/rep-1")" "$(tail -1 "$WORK/rep-2")"
awk -v a="$D1" -v b="$D2" -v c="$CAPTURED" 'BEGIN {
	r = b / a
	printf "--speed 2 took %.2f of --speed 1'"'"'s duration (goal: about 0.5, 0.45 to 0.55) %s\n", r, (r >= 0.45 && r <= 0.55) ? "OK" : "OFF"
	if (a > 1.2 * c)
		printf "note: --speed 1 took %.1f times the captured %.2fs: the target (or this machine) could not keep the pace, so the ratio measures it, not the replay\n", a / c, c
}'
