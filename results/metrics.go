package results

import (
	"strings"
)

// stepView is a step with its overall figures computed once.
type stepView struct {
	st *Step
	ov Overall
}

func newStepView(st *Step) stepView { return stepView{st: st, ov: StepOverall(st)} }

// unit tells how a metric's value reads and which absolute gate values fit it.
type unit uint8

const (
	unitCount unit = iota // plain number: tps, IOPS, errors
	unitMS                // milliseconds: response times, await
	unitMBps
	unitRatio    // a small per-transaction figure: two decimals
	unitFraction // 0..1, shown as a percentage
	unitPercent  // already a percentage (host CPU, link load)
)

// metric is one figure of a step that compare shows and gates can test. The keys
// are the gate grammar's metric names and the CSV's column stems: a public contract.
type metric struct {
	key, title string
	unit       unit
	// higherIsBetter decides nothing in the arithmetic; it only colours the HTML.
	higherIsBetter bool
	integer        bool // a count of events: shown without decimals
	// neutral figures describe the regime (I/O per transaction, hit ratio): a change
	// is neither an improvement nor a regression, so the HTML does not colour it.
	neutral bool
	// volume figures count the storage's work (IOPS, MB/s): a change is better or
	// worse only beside the same change in tps (estimate.go, volumeVerdict).
	volume bool
	value  func(v stepView) (float64, bool)
}

// ioKnown tells whether a step has storage figures at all; a zero from a step
// without a source must not read as "no I/O".
func ioKnown(io *StepIO) bool { return io != nil && io.Source != "" && io.Source != "none" }

func ioValue(f func(io *StepIO) float64) func(stepView) (float64, bool) {
	return func(v stepView) (float64, bool) {
		if !ioKnown(v.st.IO) {
			return 0, false
		}
		return f(v.st.IO), true
	}
}

func pctValue(f func(o Overall) float64) func(stepView) (float64, bool) {
	return func(v stepView) (float64, bool) { return f(v.ov), v.ov.HasPercentiles }
}

// stepMetrics are the step-level figures, in display order; the host's come last.
var stepMetrics = append([]metric{
	{key: "tps", title: "tps", higherIsBetter: true, value: func(v stepView) (float64, bool) { return v.st.TPS, true }},
	{key: "tps_e", title: "tpsE", higherIsBetter: true, value: func(v stepView) (float64, bool) { return v.st.TPSE, true }},
	{key: "avg", title: "avg response", unit: unitMS, value: func(v stepView) (float64, bool) { return v.ov.AvgMS, v.ov.Count > 0 }},
	{key: "p50", title: "p50 response", unit: unitMS, value: pctValue(func(o Overall) float64 { return o.P50MS })},
	{key: "p90", title: "p90 response", unit: unitMS, value: pctValue(func(o Overall) float64 { return o.P90MS })},
	{key: "p95", title: "p95 response", unit: unitMS, value: pctValue(func(o Overall) float64 { return o.P95MS })},
	{key: "p99", title: "p99 response", unit: unitMS, value: pctValue(func(o Overall) float64 { return o.P99MS })},
	{key: "errors", title: "errors", integer: true, value: func(v stepView) (float64, bool) { return float64(v.ov.Errors), true }},
	{key: "retries", title: "retries", integer: true, value: func(v stepView) (float64, bool) { return float64(v.ov.Retries), true }},
	{key: "read_iops", volume: true, title: "read IOPS", higherIsBetter: true, value: ioValue(func(io *StepIO) float64 { return io.ReadIOPS })},
	{key: "write_iops", volume: true, title: "write IOPS", higherIsBetter: true, value: ioValue(func(io *StepIO) float64 { return io.WriteIOPS })},
	{key: "iops", volume: true, title: "IOPS", higherIsBetter: true, value: ioValue(func(io *StepIO) float64 { return io.ReadIOPS + io.WriteIOPS })},
	{key: "read_mbps", volume: true, title: "read MB/s", unit: unitMBps, higherIsBetter: true, value: ioValue(func(io *StepIO) float64 { return io.ReadMBps })},
	{key: "write_mbps", volume: true, title: "write MB/s", unit: unitMBps, higherIsBetter: true, value: ioValue(func(io *StepIO) float64 { return io.WriteMBps })},
	{key: "read_await", title: "read await", unit: unitMS, value: ioValue(func(io *StepIO) float64 { return io.ReadAwaitMS })},
	{key: "write_await", title: "write await", unit: unitMS, value: ioValue(func(io *StepIO) float64 { return io.WriteAwaitMS })},
	{key: "io_per_txn", title: "I/O per txn", neutral: true, value: func(v stepView) (float64, bool) {
		if v.st.IO == nil || v.st.IO.IOPerTxn == 0 {
			return 0, false
		}
		return v.st.IO.IOPerTxn, true
	}},
	{key: "reads_per_txn", title: "reads per txn", unit: unitRatio, neutral: true, value: perTxnValue(func(io *StepIO) *float64 { return io.ReadsPerTxn })},
	{key: "writes_per_txn", title: "writes per txn", unit: unitRatio, neutral: true, value: perTxnValue(func(io *StepIO) *float64 { return io.WritesPerTxn })},
	{key: "cache_hit_ratio", title: "cache hit ratio", unit: unitFraction, neutral: true, value: func(v stepView) (float64, bool) {
		if v.st.CacheHitRatio == nil {
			return 0, false
		}
		return *v.st.CacheHitRatio, true
	}},
}, hostMetrics...)

func perTxnValue(f func(io *StepIO) *float64) func(stepView) (float64, bool) {
	return func(v stepView) (float64, bool) {
		if !ioKnown(v.st.IO) || f(v.st.IO) == nil {
			return 0, false
		}
		return *f(v.st.IO), true
	}
}

// metricAliases are other spellings users type for a metric key.
var metricAliases = map[string]string{"tpse": "tps_e", "tps-e": "tps_e"}

func lookupStepMetric(key string) (metric, bool) {
	key = strings.ToLower(key)
	if a, ok := metricAliases[key]; ok {
		key = a
	}
	for _, m := range stepMetrics {
		if m.key == key {
			return m, true
		}
	}
	return metric{}, false
}

// txnFigures are the per-transaction figures a gate can name as <txn>.<figure>.
var txnFigures = map[string]func(TxnStats) float64{
	"avg": func(t TxnStats) float64 { return t.AvgMS },
	"p50": func(t TxnStats) float64 { return t.P50MS },
	"p90": func(t TxnStats) float64 { return t.P90MS },
	"p95": func(t TxnStats) float64 { return t.P95MS },
	"p99": func(t TxnStats) float64 { return t.P99MS },
	"max": func(t TxnStats) float64 { return t.MaxMS },
}

// txnMetric is <slug>.<figure> for the transaction whose name slugs to slug.
func txnMetric(slug, figure string) metric {
	f := txnFigures[figure]
	return metric{
		key: slug + "." + figure, title: slug + " " + figure, unit: unitMS,
		value: func(v stepView) (float64, bool) {
			for name, t := range v.st.Transactions {
				if Slug(name) == slug && t.Count > 0 {
					return f(t), true
				}
			}
			return 0, false
		},
	}
}

// Slug is a transaction name as gates and CSV columns spell it: lower case, every
// run of other characters than letters and digits turned into one '-'
// ("Trade-Result" → "trade-result", "Market Feed" → "market-feed").
func Slug(name string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if sep && b.Len() > 0 {
				b.WriteByte('-')
			}
			sep = false
			b.WriteRune(r)
			continue
		}
		sep = true
	}
	return b.String()
}
