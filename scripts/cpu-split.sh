#!/usr/bin/env bash
# cpu-split.sh: where a CPU profile of brokerbench run spends its samples, by owner.
#
# Sums every function's own (flat) samples into: the kernel (system calls: the
# sockets' writes and reads, epoll, futex), the Go runtime (allocation, garbage
# collection, scheduler and the rest), pgx, brokerbench's own code, and other. The
# question it answers: how much of the driver's CPU is ours to remove
# (docs/driver-cpu.md, "Where the cost is").
#
# Usage: scripts/cpu-split.sh BINARY PROFILE
#   brokerbench run --users 8 --step 40s --warmup 5s --no-check --io-device none \
#     --cpuprofile cpu.prof ...        (a hidden flag of run)
#   scripts/cpu-split.sh ./brokerbench cpu.prof
set -euo pipefail
if [ $# -ne 2 ]; then awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0" >&2; exit 2; fi
go tool pprof -top -nodecount=1000000 -nodefraction=0 "$1" "$2" 2>/dev/null | awk '
function secs(v) { if (v ~ /ms$/) { sub(/ms$/, "", v); return v / 1000 } sub(/s$/, "", v); return v }
# pprof -top rows: flat flat% sum% cum cum% name
NF >= 6 && $2 ~ /%$/ && $5 ~ /%$/ {
	f = secs($1); name = $6; for (i = 7; i <= NF; i++) name = name " " $i
	if (name ~ /Syscall6|EpollWait|^runtime\.(futex|usleep|osyield|madvise|mmap|munmap|sysMmap|sysMunmap|nanotime1|walltime)$/) c = "kernel: system calls"
	else if (name ~ /jackc\/pgx/) c = "pgx"
	else if (name ~ /brokerbench\/brokerbench/) c = "brokerbench"
	else if (name ~ /^runtime\.(mallocgc|nextFree|memclr|newobject|newarray|growslice|makeslice|heapSetType|.*mspan|.*mcache|.*mcentral|.*spanSet|writeHeapBits|.*gcWriteBarrier|wbBuf|bulkBarrier|.*[aA]lloc)/) c = "Go runtime: allocation"
	else if (name ~ /^runtime\.(gc|scanobject|scanObject|markBits|greyobject|findObject|.*sweep|scanblock|scanstack|.*mark|tryDefer|heapBitsForAddr|spanOf|typePointers|pcvalue|step|funcInfo|.*unwinder|findfunc)/) c = "Go runtime: garbage collection"
	else if (name ~ /^runtime\.|^internal\/runtime|^internal\/sync|^sync\./) c = "Go runtime: scheduler, maps, locks, other"
	else if (name ~ /^(syscall|internal\/poll|net)\./) c = "Go net and syscall wrappers"
	else c = "other (standard library, other modules)"
	s[c] += f; t += f
}
END {
	if (t == 0) { print "cpu-split.sh: no samples in the profile" > "/dev/stderr"; exit 1 }
	for (k in s) printf "%6.1f %%  %s\n", 100 * s[k] / t, k | "sort -rn"
	close("sort -rn")
	printf "%.2f s of samples\n", t
}'
