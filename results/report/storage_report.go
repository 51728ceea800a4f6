package report

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// readWriteRatio shows reads : writes as "9.2 : 1" (or "1 : 4.0" when writes
// dominate); "-" when nothing was written and nothing read.
func readWriteRatio(reads, writes float64) string {
	switch {
	case reads == 0 && writes == 0:
		return "-"
	case writes == 0:
		return "∞ : 1"
	case reads >= writes:
		return fmt.Sprintf("%.1f : 1", reads/writes)
	case reads == 0:
		return "0 : 1"
	}
	return fmt.Sprintf("1 : %.1f", writes/reads)
}

// hasPerTxn reports whether any step of r has reads and writes per transaction.
func hasPerTxn(r *results.Run) bool {
	return figures.AnyStep(r, func(st *results.Step) bool { return figures.IOKnown(st.IO) && st.IO.ReadsPerTxn != nil })
}

func hasHitRatio(r *results.Run) bool {
	return figures.AnyStep(r, func(st *results.Step) bool { return st.CacheHitRatio != nil })
}

// storageHead and storageCells are the step table's storage columns; the data source
// (disk, memory, warming, unknown) is shown whenever any storage figure is.
func storageHead(perTxn, hit bool) []string {
	var h []string
	if perTxn {
		h = append(h, "reads/txn", "writes/txn", "r:w")
	}
	if hit {
		h = append(h, "hit ratio")
	}
	if perTxn || hit {
		h = append(h, "data")
	}
	return h
}

func storageCells(st *results.Step, perTxn, hit bool) []cell {
	var row []cell
	if perTxn {
		if io := st.IO; figures.IOKnown(io) && io.ReadsPerTxn != nil && io.WritesPerTxn != nil {
			row = append(row, numCell("%.2f", *io.ReadsPerTxn), numCell("%.2f", *io.WritesPerTxn),
				cell{Text: readWriteRatio(io.ReadIOPS, io.WriteIOPS), Class: "num"})
		} else {
			row = append(row, dash, dash, dash)
		}
	}
	if hit {
		if st.CacheHitRatio != nil {
			row = append(row, cell{Text: figures.FormatHitRatio(*st.CacheHitRatio), Class: "num"})
		} else {
			row = append(row, dash)
		}
	}
	if perTxn || hit {
		row = append(row, cell{Text: figures.DataSourceOf(st)})
	}
	return row
}

// memoryResidentNote explains the M flag under the step table when a step has it.
func memoryResidentNote(r *results.Run) string {
	var users []int
	for _, i := range figures.StepOrder(r.Steps) {
		if figures.MemoryResident(&r.Steps[i]) {
			users = append(users, r.Steps[i].Users)
		}
	}
	if len(users) == 0 {
		return ""
	}
	return fmt.Sprintf("M: memory-resident (%s): the disks served fewer than %.0f reads per transaction, or the cache hit ratio was above %.1f %%, "+
		"so these steps measured memory, not storage; %s.", figures.AtUsers(users), results.MemoryResidentReadsPerTxn, results.MemoryResidentHitRatio*100, figures.MemoryResidentAdvice)
}

// warmingNote explains the W flag under the step table when a step has it.
func warmingNote(r *results.Run) string {
	var users []int
	for _, i := range figures.StepOrder(r.Steps) {
		if figures.CacheWarming(&r.Steps[i]) {
			users = append(users, r.Steps[i].Users)
		}
	}
	if len(users) == 0 {
		return ""
	}
	return fmt.Sprintf("W: cache warming (%s): the disks' reads fell by %.0f %% or more from the first half of the window to the second, "+
		"so these steps measured a cache filling, neither the storage nor memory; %s.", figures.AtUsers(users), results.WarmingReadsDrop*100, compare.WarmingAdvice)
}

// describeStorage adds the run's memory cap and database size to its identity line.
func describeStorage(d results.Database) []string {
	var parts []string
	if d.SizeBytes > 0 {
		parts = append(parts, "database "+bytesize.Format(d.SizeBytes))
	}
	if d.MemoryCapBytes > 0 {
		parts = append(parts, "server memory capped at "+bytesize.Format(d.MemoryCapBytes))
	}
	return parts
}

// storageCSVColumns are appended to the step CSV: the storage figures, the step's
// data source and bottleneck, its
// flags (";"-separated), and the run's memory cap and database size.
func storageCSVColumns() []csvColumn {
	return []csvColumn{
		csvMetric("reads_per_txn", "reads_per_txn"),
		csvMetric("writes_per_txn", "writes_per_txn"),
		csvMetric("cache_hit_ratio", "cache_hit_ratio"),
		{"data_source", func(_ results.Input, v figures.StepView) string { return figures.DataSourceOf(v.Step) }},
		{"bottleneck", func(in results.Input, v figures.StepView) string { return figures.BottleneckOf(v.Step, in.Run.System) }},
		{"flags", func(_ results.Input, v figures.StepView) string { return strings.Join(v.Step.Flags, ";") }},
		{"memory_cap_bytes", func(in results.Input, _ figures.StepView) string { return csvPositive(in.Run.Database.MemoryCapBytes) }},
		{"db_size_bytes", func(in results.Input, _ figures.StepView) string { return csvPositive(in.Run.Database.SizeBytes) }},
	}
}

func csvPositive(v int64) string {
	if v <= 0 {
		return ""
	}
	return csvInt(v)
}
