package report

import (
	"encoding/json"
	"io"
	"math"
	"slices"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// IntervalKeys are the figures whose change compare's CSV carries with its
// interval, four columns each: <key>_change_pct, <key>_change_lo,
// <key>_change_hi, <key>_verdict; then, after all of them, two more each:
// <key>_detectable_pct and <key>_verdict_reason (docs/result-format.md, CSV
// export). The order is a public contract: columns are only appended.
var IntervalKeys = []string{"tps", "tps_e", "avg", "p90", "p95", "read_iops", "write_iops", "reads_per_txn"}

// CompareCSVHeader is compare --csv's columns: the step CSV's, then the changes.
func CompareCSVHeader() []string {
	return append(CSVHeader(), intervalColumns(IntervalKeys)...)
}

// intervalColumns are a comparison CSV's columns for the keys' estimates, in the
// order estimateCSVCells fills them: four per key, then two more per key.
func intervalColumns(keys []string) []string {
	var h []string
	for _, k := range keys {
		h = append(h, k+"_change_pct", k+"_change_lo", k+"_change_hi", k+"_verdict")
	}
	for _, k := range keys {
		h = append(h, k+"_detectable_pct", k+"_verdict_reason")
	}
	return h
}

// WriteComparisonCSV writes compare --csv: one row per (run, step) as the step CSV, each
// repeat a row of its own, then each figure's change against the base at the
// same user count with its 95 % interval, verdict, detectable difference and
// the reason for no verdict (the side's, repeated on every repeat's row; empty on
// the base's rows and for unmatched steps).
func WriteComparisonCSV(c *compare.Comparison, w io.Writer) error {
	extra := CompareCSVHeader()[len(CSVHeader()):]
	return writeStepsCSV(w, c.Inputs, extra, func(r int, st *results.Step) []string {
		cells := make([]string, len(extra))
		i := slices.Index(c.Users, st.Users) // -1: an unmatched step
		if r == 0 || i < 0 {
			return cells
		}
		for k, key := range IntervalKeys {
			m, _ := figures.LookupStepMetric(key)
			e, ok := c.Estimate(i, r, m)
			if !ok {
				continue
			}
			estimateCSVCells(cells, k, len(IntervalKeys), e)
		}
		return cells
	})
}

// csvChange writes a change in percent; an unbounded one (from zero) as +Inf or
// -Inf, which spreadsheets and Go's ParseFloat read.
func csvChange(x float64) string {
	if math.IsInf(x, 0) {
		if x > 0 {
			return "+Inf"
		}
		return "-Inf"
	}
	return csvFloat(x)
}

// comparisonJSON is compare --json's document (docs/result-format.md, "compare
// --json").
type comparisonJSON struct {
	Runs        []sideJSON     `json:"runs"`
	Differences []diffJSON     `json:"differences,omitempty"`
	Steps       []stepJSON     `json:"steps"`
	Confidence  float64        `json:"confidence"`
	Unmatched   []unmatchedRow `json:"unmatched,omitempty"`
}

type sideJSON struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
}

type diffJSON struct {
	Run   string   `json:"run"`
	Items []string `json:"items"`
}

type stepJSON struct {
	Users   int          `json:"users"`
	Figures []figureJSON `json:"figures"`
}

type figureJSON struct {
	Run       string   `json:"run"`
	Figure    string   `json:"figure"`
	Base      float64  `json:"base"`
	Value     float64  `json:"value"`
	ChangePct *float64 `json:"change_pct,omitempty"` // absent when unbounded (from a zero base)
	Lo        *float64 `json:"change_lo,omitempty"`
	Hi        *float64 `json:"change_hi,omitempty"`
	Verdict   string   `json:"verdict,omitempty"`
	Method    string   `json:"method,omitempty"`
	// Detectable is the smallest change the data can tell from noise (percent).
	Detectable *float64 `json:"detectable_pct,omitempty"`
	Reason     string   `json:"reason,omitempty"` // why there is no verdict
}

type unmatchedRow struct {
	Run    string `json:"run"`
	Users  int    `json:"users"`
	Reason string `json:"reason"`
}

// WriteComparisonJSON writes compare --json: the sides and their files, what differs, and
// for every matched step every figure both sides know, with its change, interval
// and verdict.
func WriteComparisonJSON(c *compare.Comparison, w io.Writer) error {
	doc := comparisonJSON{Confidence: stats.Confidence, Steps: []stepJSON{}}
	for r, in := range c.Inputs {
		s := sideJSON{Name: in.Name()}
		for _, x := range in.All() {
			s.Files = append(s.Files, x.Path)
		}
		doc.Runs = append(doc.Runs, s)
		if r > 0 {
			if d := c.Differences(r); len(d) > 0 {
				doc.Differences = append(doc.Differences, diffJSON{Run: in.Name(), Items: d})
			}
		}
	}
	for i, u := range c.Users {
		sj := stepJSON{Users: u, Figures: []figureJSON{}}
		for r := 1; r < len(c.Inputs); r++ {
			for _, m := range c.RowMetrics() {
				e, ok := c.Estimate(i, r, m)
				if !ok {
					continue
				}
				b, _ := c.Value(i, 0, m)
				v, _ := c.Value(i, r, m)
				f := figureJSON{Run: c.Inputs[r].Name(), Figure: m.Key, Base: results.Round(b, 4), Value: results.Round(v, 4),
					Verdict: string(e.Verdict), Method: e.Method}
				f.ChangePct, f.Detectable = finitePtr(e.Change, 2), finitePtr(e.Detectable, 2)
				if e.HasInterval() {
					f.Lo, f.Hi = finitePtr(e.Lo, 2), finitePtr(e.Hi, 2)
				}
				f.Reason = e.Reason
				sj.Figures = append(sj.Figures, f)
			}
		}
		doc.Steps = append(doc.Steps, sj)
	}
	for _, um := range c.Unmatched {
		doc.Unmatched = append(doc.Unmatched, unmatchedRow{Run: c.Inputs[um.Run].Name(), Users: um.Users, Reason: um.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func fptr(x float64) *float64 { return &x }

// finitePtr is x rounded to digits decimals, nil when it is not a number (an
// interval that could not be made): JSON has no NaN.
func finitePtr(x float64, digits int) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return fptr(results.Round(x, digits))
}

// estimateCSVCells fills the k-th of n figures' columns of a comparison's CSV row
// with e: change, lo, hi and verdict in the first 4n cells, then detectable and
// reason in the 2n after them.
func estimateCSVCells(cells []string, k, n int, e compare.Estimate) {
	cells[4*k] = csvChange(e.Change)
	if e.HasInterval() {
		cells[4*k+1], cells[4*k+2] = csvChange(e.Lo), csvChange(e.Hi)
	}
	cells[4*k+3] = string(e.Verdict)
	more := 4*n + 2*k
	if !math.IsNaN(e.Detectable) {
		cells[more] = csvFloat(e.Detectable)
	}
	cells[more+1] = e.Reason
}
