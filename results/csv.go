package results

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// csvColumn is one column of the step CSV. The order of csvColumns is a public
// contract (docs/result-format.md): new columns are only ever appended.
type csvColumn struct {
	name  string
	value func(in Input, v stepView) string
}

func csvFloat(v float64) string { return strconv.FormatFloat(round(v, 4), 'f', -1, 64) }

func csvInt(v int64) string { return strconv.FormatInt(v, 10) }

func csvBool(b bool) string { return strconv.FormatBool(b) }

// csvMetric is a column showing a metric of the catalogue; unknown values are empty.
func csvMetric(name, key string) csvColumn {
	m, _ := lookupStepMetric(key)
	return csvColumn{name, func(_ Input, v stepView) string {
		x, ok := m.value(v)
		if !ok {
			return ""
		}
		return csvFloat(x)
	}}
}

func csvColumns() []csvColumn {
	io := func(f func(*StepIO) string) func(Input, stepView) string {
		return func(_ Input, v stepView) string {
			if !ioKnown(v.st.IO) {
				return ""
			}
			return f(v.st.IO)
		}
	}
	return append([]csvColumn{
		{"file", func(in Input, _ stepView) string { return in.Path }},
		{"label", func(in Input, _ stepView) string { return in.Run.Label }},
		{"users", func(_ Input, v stepView) string { return strconv.Itoa(v.st.Users) }},
		{"started_at", func(_ Input, v stepView) string { return v.st.StartedAt.UTC().Format(time.RFC3339) }},
		{"warmup_s", func(_ Input, v stepView) string { return csvFloat(v.st.WarmupS) }},
		{"measured_s", func(_ Input, v stepView) string { return csvFloat(v.st.MeasuredS) }},
		{"partial", func(_ Input, v stepView) string { return csvBool(v.st.Partial) }},
		{"driver_bottleneck", func(_ Input, v stepView) string { return csvBool(v.st.Driver.Bottleneck) }},
		csvMetric("tps", "tps"),
		csvMetric("tps_e", "tps_e"),
		{"count", func(_ Input, v stepView) string { return csvInt(v.ov.Count) }},
		csvMetric("avg_ms", "avg"),
		csvMetric("p50_ms", "p50"),
		csvMetric("p90_ms", "p90"),
		csvMetric("p95_ms", "p95"),
		csvMetric("p99_ms", "p99"),
		{"max_ms", func(_ Input, v stepView) string { return csvFloat(v.ov.MaxMS) }},
		{"errors", func(_ Input, v stepView) string { return csvInt(v.ov.Errors) }},
		{"retries", func(_ Input, v stepView) string { return csvInt(v.ov.Retries) }},
		{"rollbacks", func(_ Input, v stepView) string { return csvInt(v.ov.Rollbacks) }},
		{"io_source", func(_ Input, v stepView) string {
			if v.st.IO == nil {
				return ""
			}
			return v.st.IO.Source
		}},
		csvMetric("read_iops", "read_iops"),
		csvMetric("write_iops", "write_iops"),
		csvMetric("iops", "iops"),
		csvMetric("read_mbps", "read_mbps"),
		csvMetric("write_mbps", "write_mbps"),
		csvMetric("read_await_ms", "read_await"),
		csvMetric("write_await_ms", "write_await"),
		{"queue_depth", io(func(s *StepIO) string { return csvFloat(s.QueueDepth) })},
		csvMetric("io_per_txn", "io_per_txn"),
		{"wal_bytes_per_commit", io(func(s *StepIO) string { return csvFloat(s.WALBytesPerCommit) })},
	}, append(append(storageCSVColumns(), limitsCSVColumns()...), hostCSVColumns()...)...)
}

// limitsCSVColumns are the limits, steadiness and --find-max columns, appended
// after the storage-regime ones (the step's flags are among those).
func limitsCSVColumns() []csvColumn {
	return []csvColumn{
		{"rate", func(_ Input, v stepView) string {
			if v.st.Rate == 0 {
				return ""
			}
			return csvFloat(v.st.Rate)
		}},
		{"limits", func(in Input, v stepView) string {
			lims, ok := LimitsOf(in.Run)
			if !ok {
				return ""
			}
			if lims.Judge(v.st).Pass {
				return "pass"
			}
			return "fail"
		}},
		{"limits_broken", func(_ Input, v stepView) string { return strings.Join(v.st.LimitsBroken, ";") }},
		{"tps_cv", func(_ Input, v stepView) string {
			if v.st.Steadiness == nil {
				return ""
			}
			return csvFloat(v.st.Steadiness.TPSCV)
		}},
		{"tps_half_change", func(_ Input, v stepView) string {
			if v.st.Steadiness == nil {
				return ""
			}
			return csvFloat(v.st.Steadiness.HalfChange)
		}},
		{"nominal_percent", func(_ Input, v stepView) string {
			if v.st.NominalPercent == 0 {
				return ""
			}
			return csvFloat(v.st.NominalPercent)
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
// figures (no I/O source, no histograms) are empty cells.
func WriteStepsCSV(w io.Writer, inputs []Input) error {
	return writeStepsCSV(w, inputs, nil, nil)
}

// writeStepsCSV writes the step CSV, every repeat of a side a row of its own,
// with extra columns after CSVHeader's: names, and the cells of side r's step
// (nil for none) from cells.
func writeStepsCSV(w io.Writer, inputs []Input, extra []string, cells func(r int, st *Step) []string) error {
	cols := csvColumns()
	cw := csv.NewWriter(w)
	if err := cw.Write(append(CSVHeader(), extra...)); err != nil {
		return err
	}
	row := make([]string, len(cols))
	for r, side := range inputs {
		for _, in := range side.All() {
			for _, i := range stepOrder(in.Run.Steps) {
				v := newStepView(&in.Run.Steps[i])
				for c, col := range cols {
					row[c] = Printable(col.value(in, v))
				}
				out := row
				if cells != nil {
					out = append(slices.Clone(row), cells(r, v.st)...)
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
