package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// csvColumn is one column of the step CSV. The order of csvColumns is a public
// contract (docs/result-format.md): new columns are only ever appended.
type csvColumn struct {
	name  string
	value func(in results.Input, v figures.StepView) string
}

func csvFloat(v float64) string { return strconv.FormatFloat(results.Round(v, 4), 'f', -1, 64) }

func csvInt(v int64) string { return strconv.FormatInt(v, 10) }

func csvBool(b bool) string { return strconv.FormatBool(b) }

// csvMetric is a column showing a metric of the catalogue; unknown values are empty.
func csvMetric(name, key string) csvColumn {
	m, _ := figures.LookupStepMetric(key)
	return csvColumn{name, func(_ results.Input, v figures.StepView) string {
		x, ok := m.Value(v)
		if !ok {
			return ""
		}
		return csvFloat(x)
	}}
}

func csvColumns() []csvColumn {
	io := func(f func(*results.StepIO) string) func(results.Input, figures.StepView) string {
		return func(_ results.Input, v figures.StepView) string {
			if !figures.IOKnown(v.Step.IO) {
				return ""
			}
			return f(v.Step.IO)
		}
	}
	return append([]csvColumn{
		{"file", func(in results.Input, _ figures.StepView) string { return in.Path }},
		{"label", func(in results.Input, _ figures.StepView) string { return in.Run.Label }},
		{"users", func(_ results.Input, v figures.StepView) string { return strconv.Itoa(v.Step.Users) }},
		{"started_at", func(_ results.Input, v figures.StepView) string { return v.Step.StartedAt.UTC().Format(time.RFC3339) }},
		{"warmup_s", func(_ results.Input, v figures.StepView) string { return csvFloat(v.Step.WarmupS) }},
		{"measured_s", func(_ results.Input, v figures.StepView) string { return csvFloat(v.Step.MeasuredS) }},
		{"partial", func(_ results.Input, v figures.StepView) string { return csvBool(v.Step.Partial) }},
		{"driver_bottleneck", func(_ results.Input, v figures.StepView) string { return csvBool(v.Step.Driver.Bottleneck) }},
		csvMetric("tps", "tps"),
		csvMetric("tps_e", "tps_e"),
		{"count", func(_ results.Input, v figures.StepView) string { return csvInt(v.Overall.Count) }},
		csvMetric("avg_ms", "avg"),
		csvMetric("p50_ms", "p50"),
		csvMetric("p90_ms", "p90"),
		csvMetric("p95_ms", "p95"),
		csvMetric("p99_ms", "p99"),
		{"max_ms", func(_ results.Input, v figures.StepView) string { return csvFloat(v.Overall.MaxMS) }},
		{"errors", func(_ results.Input, v figures.StepView) string { return csvInt(v.Overall.Errors) }},
		{"retries", func(_ results.Input, v figures.StepView) string { return csvInt(v.Overall.Retries) }},
		{"rollbacks", func(_ results.Input, v figures.StepView) string { return csvInt(v.Overall.Rollbacks) }},
		{"io_source", func(_ results.Input, v figures.StepView) string {
			if v.Step.IO == nil {
				return ""
			}
			return v.Step.IO.Source
		}},
		csvMetric("read_iops", "read_iops"),
		csvMetric("write_iops", "write_iops"),
		csvMetric("iops", "iops"),
		csvMetric("read_mbps", "read_mbps"),
		csvMetric("write_mbps", "write_mbps"),
		csvMetric("read_await_ms", "read_await"),
		csvMetric("write_await_ms", "write_await"),
		{"queue_depth", io(func(s *results.StepIO) string { return csvFloat(s.QueueDepth) })},
		csvMetric("io_per_txn", "io_per_txn"),
		{"wal_bytes_per_commit", io(func(s *results.StepIO) string { return csvFloat(s.WALBytesPerCommit) })},
	}, append(append(storageCSVColumns(), limitsCSVColumns()...), hostCSVColumns()...)...)
}

// limitsCSVColumns are the limits, steadiness and --find-max columns, appended
// after the storage-regime ones (the step's flags are among those).
func limitsCSVColumns() []csvColumn {
	return []csvColumn{
		{"rate", func(_ results.Input, v figures.StepView) string {
			if v.Step.Rate == 0 {
				return ""
			}
			return csvFloat(v.Step.Rate)
		}},
		{"limits", func(in results.Input, v figures.StepView) string {
			lims, ok := results.LimitsOf(in.Run)
			if !ok {
				return ""
			}
			if figures.JudgeLimits(lims, v.Step).Pass {
				return "pass"
			}
			return "fail"
		}},
		{"limits_broken", func(_ results.Input, v figures.StepView) string { return strings.Join(v.Step.LimitsBroken, ";") }},
		{"tps_cv", func(_ results.Input, v figures.StepView) string {
			if v.Step.Steadiness == nil {
				return ""
			}
			return csvFloat(v.Step.Steadiness.TPSCV)
		}},
		{"tps_half_change", func(_ results.Input, v figures.StepView) string {
			if v.Step.Steadiness == nil {
				return ""
			}
			return csvFloat(v.Step.Steadiness.HalfChange)
		}},
		{"nominal_percent", func(_ results.Input, v figures.StepView) string {
			if v.Step.NominalPercent == 0 {
				return ""
			}
			return csvFloat(v.Step.NominalPercent)
		}},
	}
}

// CSVHeader is the step CSV's column names in order.
func CSVHeader() []string {
	cols := csvColumns()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return names
}

// WriteStepsCSV writes one row per (run, step), runs in the given order and each
// run's steps in increasing user order, under the CSVHeader columns. Unknown
// Figures (no I/O source, no histograms) are empty cells.
func WriteStepsCSV(w io.Writer, inputs []results.Input) error {
	return writeStepsCSV(w, inputs, nil, nil)
}

// writeStepsCSV writes the step CSV, every repeat of a side a row of its own,
// with extra columns after CSVHeader's: names, and the cells of side r's step
// (nil for none) from cells.
func writeStepsCSV(w io.Writer, inputs []results.Input, extra []string, cells func(r int, st *results.Step) []string) error {
	cols := csvColumns()
	cw := csv.NewWriter(w)
	if err := cw.Write(append(CSVHeader(), extra...)); err != nil {
		return err
	}
	row := make([]string, len(cols))
	for r, side := range inputs {
		for _, in := range side.All() {
			for _, i := range figures.StepOrder(in.Run.Steps) {
				v := figures.NewStepView(&in.Run.Steps[i])
				for c, col := range cols {
					row[c] = results.Printable(col.value(in, v))
				}
				out := row
				if cells != nil {
					out = append(slices.Clone(row), cells(r, v.Step)...)
				}
				if err := cw.Write(out); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
