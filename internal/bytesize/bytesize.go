// Package bytesize reads and shows sizes the one way every command, log and report
// does: Parse for every flag that takes a size, Format for every size printed, so
// one run's database size and memory cap read the same in its log, its report and
// quickstart's closing line.
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// Units says which units Parse reads and what each means, for flags' help and
// its own errors.
const Units = "KB, MB, GB, TB are powers of 1,000; KiB, MiB, GiB, TiB and the bare K, M, G, T powers of 1,024"

// Parse reads a size as users write it, for every flag that takes one (load --size,
// --server-memory, disk --size, replay --span): a number of bytes or a number with a
// unit, in any case. Units mean what they say: KB, MB, GB, TB are powers of 1,000 (as
// disks are sold), KiB, MiB, GiB, TiB powers of 1,024; the bare letters K, M, G, T are
// powers of 1,024, as PostgreSQL's memory settings and the cgroup files read them. A
// database planned at four times the memory thus stays four times it whichever flag
// takes which size. "0" is zero, which each flag gives its own meaning or refuses.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	num := strings.TrimRightFunc(t, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	unit := strings.TrimSpace(t[len(num):])
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a non-negative number with an optional unit, e.g. 256MiB or 50GB", s)
	}
	mult := map[string]float64{"": 1, "B": 1,
		"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"K": 1 << 10, "KIB": 1 << 10,
		"M": 1 << 20, "MIB": 1 << 20,
		"G": 1 << 30, "GIB": 1 << 30,
		"T": 1 << 40, "TIB": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("size %q: unknown unit %q (%s; no unit is bytes)", s, unit, Units)
	}
	if v*mult > 1<<62 {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return int64(v * mult), nil
}

// Format shows bytes in the largest binary unit that keeps a whole number part,
// "256 MiB", "1.5 GiB", labelled as such, since Parse reads "MB" as 10^6.
func Format(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v := float64(b)
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}
