package figures

import "github.com/brokerbench/brokerbench/results"

// IOAwaitMS is the average I/O latency over reads and writes, weighted by their
// rates; 0 when nothing moved.
func IOAwaitMS(f results.IOFigures) float64 {
	n := f.ReadIOPS + f.WriteIOPS
	if n == 0 {
		return 0
	}
	return (f.ReadIOPS*f.ReadAwaitMS + f.WriteIOPS*f.WriteAwaitMS) / n
}
