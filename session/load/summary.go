package load

import (
	"fmt"
	"io"

	"github.com/brokerbench/brokerbench/loader"
)

func printLoadSummary(w io.Writer, st loader.Stats, seed uint64) {
	fmt.Fprintf(w, "%-20s %12s %10s %10s\n", "table", "rows", "heap MB", "total MB")
	// sizes renders the size columns: "-" where the database could not tell them.
	sizes := func(heap, total int64) string {
		if st.SizesUnknown != "" {
			return fmt.Sprintf("%10s %10s", "-", "-")
		}
		return fmt.Sprintf("%10.1f %10.1f", mb(heap), mb(total))
	}
	var rows, heap, total int64
	for _, t := range st.Tables {
		fmt.Fprintf(w, "%-20s %12d %s\n", t.Name, t.Rows, sizes(t.HeapBytes, t.TotalBytes))
		rows += t.Rows
		heap += t.HeapBytes
		total += t.TotalBytes
	}
	fmt.Fprintf(w, "%-20s %12d %s\n", "all", rows, sizes(heap, total))
	if st.SizesUnknown != "" {
		fmt.Fprintf(w, "sizes unknown: %s\n", st.SizesUnknown)
	}
	for _, p := range st.Phases {
		fmt.Fprintf(w, "phase %-18s %8.1f s\n", p.Name, p.Duration.Seconds())
	}
	sec := st.Elapsed.Seconds()
	if st.SizesUnknown != "" {
		fmt.Fprintf(w, "loaded in %.1f s: %.0f rows/s; seed %d\n", sec, float64(rows)/sec, seed)
		return
	}
	fmt.Fprintf(w, "loaded in %.1f s: %.0f rows/s, %.1f MB/s of table heap (%.1f MB/s with indexes); seed %d\n",
		sec, float64(rows)/sec, mb(heap)/sec, mb(total)/sec, seed)
}

// mb is bytes in MB, powers of 1,000, as the plan, the progress lines and --size
// count them.
func mb(b int64) float64 { return float64(b) / 1e6 }
