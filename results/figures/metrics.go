package figures

import (
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// StepView is a step with its overall figures computed once.
type StepView struct {
	Step    *results.Step
	Overall Overall
}

func NewStepView(st *results.Step) StepView { return StepView{Step: st, Overall: StepOverall(st)} }

// Unit tells how a metric's value reads and which absolute gate values fit it.
type Unit uint8

const (
	UnitCount Unit = iota // plain number: tps, IOPS, errors
	UnitMS                // milliseconds: response times, await
	unitMBps
	UnitRatio    // a small per-transaction figure: two decimals
	unitFraction // 0..1, shown as a percentage
	UnitPercent  // already a percentage (host CPU, link load)
)

// Metric is one figure of a step that compare shows and gates can test. The keys
// are the gate grammar's metric names and the CSV's column stems: a public contract.
type Metric struct {
	Key, Title string
	Unit       Unit
	// HigherIsBetter decides nothing in the arithmetic; it only colours the HTML.
	HigherIsBetter bool
	Integer        bool // a count of events: shown without decimals
	// Neutral figures describe the regime (I/O per transaction, hit ratio): a change
	// is neither an improvement nor a regression, so the HTML does not colour it.
	Neutral bool
	// Volume figures count the storage's work (IOPS, MB/s): a change is better or
	// worse only beside the same change in tps (estimate.go, volumeVerdict).
	Volume bool
	Value  func(v StepView) (float64, bool)
}

// IOKnown tells whether a step has storage figures at all; a zero from a step
// without a source must not read as "no I/O".
func IOKnown(io *results.StepIO) bool { return io != nil && io.Source != "" && io.Source != "none" }

func ioValue(f func(io *results.StepIO) float64) func(StepView) (float64, bool) {
	return func(v StepView) (float64, bool) {
		if !IOKnown(v.Step.IO) {
			return 0, false
		}
		return f(v.Step.IO), true
	}
}

func pctValue(f func(o Overall) float64) func(StepView) (float64, bool) {
	return func(v StepView) (float64, bool) { return f(v.Overall), v.Overall.HasPercentiles }
}

// StepMetrics are the step-level figures, in display order; the host's come last.
var StepMetrics = append([]Metric{
	{Key: "tps", Title: "tps", HigherIsBetter: true, Value: func(v StepView) (float64, bool) { return v.Step.TPS, true }},
	{Key: "tps_e", Title: "tpsE", HigherIsBetter: true, Value: func(v StepView) (float64, bool) { return v.Step.TPSE, true }},
	{Key: "avg", Title: "avg response", Unit: UnitMS, Value: func(v StepView) (float64, bool) { return v.Overall.AvgMS, v.Overall.Count > 0 }},
	{Key: "p50", Title: "p50 response", Unit: UnitMS, Value: pctValue(func(o Overall) float64 { return o.P50MS })},
	{Key: "p90", Title: "p90 response", Unit: UnitMS, Value: pctValue(func(o Overall) float64 { return o.P90MS })},
	{Key: "p95", Title: "p95 response", Unit: UnitMS, Value: pctValue(func(o Overall) float64 { return o.P95MS })},
	{Key: "p99", Title: "p99 response", Unit: UnitMS, Value: pctValue(func(o Overall) float64 { return o.P99MS })},
	{Key: "errors", Title: "errors", Integer: true, Value: func(v StepView) (float64, bool) { return float64(v.Overall.Errors), true }},
	{Key: "retries", Title: "retries", Integer: true, Value: func(v StepView) (float64, bool) { return float64(v.Overall.Retries), true }},
	{Key: "read_iops", Volume: true, Title: "read IOPS", HigherIsBetter: true, Value: ioValue(func(io *results.StepIO) float64 { return io.ReadIOPS })},
	{Key: "write_iops", Volume: true, Title: "write IOPS", HigherIsBetter: true, Value: ioValue(func(io *results.StepIO) float64 { return io.WriteIOPS })},
	{Key: "iops", Volume: true, Title: "IOPS", HigherIsBetter: true, Value: ioValue(func(io *results.StepIO) float64 { return io.ReadIOPS + io.WriteIOPS })},
	{Key: "read_mbps", Volume: true, Title: "read MB/s", Unit: unitMBps, HigherIsBetter: true, Value: ioValue(func(io *results.StepIO) float64 { return io.ReadMBps })},
	{Key: "write_mbps", Volume: true, Title: "write MB/s", Unit: unitMBps, HigherIsBetter: true, Value: ioValue(func(io *results.StepIO) float64 { return io.WriteMBps })},
	{Key: "read_await", Title: "read await", Unit: UnitMS, Value: ioValue(func(io *results.StepIO) float64 { return io.ReadAwaitMS })},
	{Key: "write_await", Title: "write await", Unit: UnitMS, Value: ioValue(func(io *results.StepIO) float64 { return io.WriteAwaitMS })},
	{Key: "io_per_txn", Title: "I/O per txn", Neutral: true, Value: func(v StepView) (float64, bool) {
		if v.Step.IO == nil || v.Step.IO.IOPerTxn == 0 {
			return 0, false
		}
		return v.Step.IO.IOPerTxn, true
	}},
	{Key: "reads_per_txn", Title: "reads per txn", Unit: UnitRatio, Neutral: true, Value: perTxnValue(func(io *results.StepIO) *float64 { return io.ReadsPerTxn })},
	{Key: "writes_per_txn", Title: "writes per txn", Unit: UnitRatio, Neutral: true, Value: perTxnValue(func(io *results.StepIO) *float64 { return io.WritesPerTxn })},
	{Key: "cache_hit_ratio", Title: "cache hit ratio", Unit: unitFraction, Neutral: true, Value: func(v StepView) (float64, bool) {
		if v.Step.CacheHitRatio == nil {
			return 0, false
		}
		return *v.Step.CacheHitRatio, true
	}},
}, hostMetrics...)

func perTxnValue(f func(io *results.StepIO) *float64) func(StepView) (float64, bool) {
	return func(v StepView) (float64, bool) {
		if !IOKnown(v.Step.IO) || f(v.Step.IO) == nil {
			return 0, false
		}
		return *f(v.Step.IO), true
	}
}

// metricAliases are other spellings users type for a metric key.
var metricAliases = map[string]string{"tpse": "tps_e", "tps-e": "tps_e"}

func LookupStepMetric(key string) (Metric, bool) {
	key = strings.ToLower(key)
	if a, ok := metricAliases[key]; ok {
		key = a
	}
	for _, m := range StepMetrics {
		if m.Key == key {
			return m, true
		}
	}
	return Metric{}, false
}

// TxnFigures are the per-transaction figures a gate can name as <txn>.<figure>.
var TxnFigures = map[string]func(results.TxnStats) float64{
	"avg": func(t results.TxnStats) float64 { return t.AvgMS },
	"p50": func(t results.TxnStats) float64 { return t.P50MS },
	"p90": func(t results.TxnStats) float64 { return t.P90MS },
	"p95": func(t results.TxnStats) float64 { return t.P95MS },
	"p99": func(t results.TxnStats) float64 { return t.P99MS },
	"max": func(t results.TxnStats) float64 { return t.MaxMS },
}

// TxnMetric is <slug>.<figure> for the transaction whose name slugs to slug.
func TxnMetric(slug, figure string) Metric {
	f := TxnFigures[figure]
	return Metric{
		Key: slug + "." + figure, Title: slug + " " + figure, Unit: UnitMS,
		Value: func(v StepView) (float64, bool) {
			for name, t := range v.Step.Transactions {
				if results.Slug(name) == slug && t.Count > 0 {
					return f(t), true
				}
			}
			return 0, false
		},
	}
}
