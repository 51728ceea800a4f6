package memcap

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a memory size as users write it: a number of bytes or a number
// with a unit. Units mean what they say, as --size reads them: KB, MB, GB, TB are
// powers of 1,000 (as disks are sold), KiB, MiB, GiB, TiB powers of 1,024; the bare
// letters K, M, G, T are powers of 1,024, as PostgreSQL's memory settings and the
// cgroup files read them. "0" means no cap.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	if t == "" {
		return 0, fmt.Errorf("size %q: empty", s)
	}
	num := strings.TrimRightFunc(t, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	unit := strings.TrimSpace(t[len(num):])
	num = strings.TrimSpace(num)
	mult := map[string]float64{"": 1, "B": 1,
		"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"K": 1 << 10, "KIB": 1 << 10,
		"M": 1 << 20, "MIB": 1 << 20,
		"G": 1 << 30, "GIB": 1 << 30,
		"T": 1 << 40, "TIB": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("size %q: unknown unit %q (use B, KB, MB, GB, TB or KiB, MiB, GiB, TiB)", s, unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("size %q: want a non-negative number with an optional unit, e.g. 256MiB or 1GB", s)
	}
	return int64(v * mult), nil
}

// FormatSize shows bytes in the largest binary unit that keeps a whole number part,
// "256 MiB", "1.5 GiB", labelled as such, since ParseSize reads "MB" as 10^6.
func FormatSize(b int64) string {
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
