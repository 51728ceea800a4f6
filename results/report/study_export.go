package report

import (
	"encoding/csv"
	"encoding/json"
	"io"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/stats"
)

// The study's matrix as data: one entry per (workload, step, figure, system), the
// baseline's with its value only, every other system's with its change against the
// baseline, the change's interval, detectable difference, verdict and the reason
// of a missing verdict (docs/result-format.md, "Study").

// StudyCSVHeader are the columns of a study's CSV, one row per cell.
func StudyCSVHeader() []string {
	return []string{"workload", "kind", "step", "figure", "system", "baseline", "value",
		"change_percent", "lo_percent", "hi_percent", "detectable_percent", "verdict", "reason"}
}

// studyCellJSON is one cell of the matrix.
type studyCellJSON struct {
	Step       string   `json:"step"`
	Figure     string   `json:"figure"`
	System     string   `json:"system"`
	Value      *float64 `json:"value"`
	Change     *float64 `json:"change_percent,omitempty"`
	Lo         *float64 `json:"lo_percent,omitempty"`
	Hi         *float64 `json:"hi_percent,omitempty"`
	Detectable *float64 `json:"detectable_percent,omitempty"`
	Verdict    string   `json:"verdict,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

type studyWorkloadJSON struct {
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Summary string          `json:"summary,omitempty"`
	Missing []string        `json:"missing,omitempty"`
	Cells   []studyCellJSON `json:"cells"`
}

type studyJSON struct {
	Study      string              `json:"study"`
	Baseline   string              `json:"baseline"`
	Systems    []string            `json:"systems"`
	Confidence float64             `json:"confidence"`
	Headlines  []string            `json:"headlines"`
	Warnings   []string            `json:"warnings,omitempty"`
	Workloads  []studyWorkloadJSON `json:"workloads"`
	Record     *results.Study      `json:"record"`
}

// studyCells are every cell of the workload, row by row, system by system.
func studyCells(s *compare.Study, sw compare.StudyWorkload) []studyCellJSON {
	out := []studyCellJSON{}
	for _, row := range studyRows(s, sw) {
		for j, cl := range row.Cells {
			c := studyCellJSON{Step: row.Step, Figure: row.Key, System: s.Systems[j]}
			if cl.Known {
				c.Value = finitePtr(cl.Value, 4)
			}
			if e := cl.Est; e != nil {
				c.Change, c.Lo, c.Hi, c.Detectable = finitePtr(e.Change, 2), finitePtr(e.Lo, 2), finitePtr(e.Hi, 2), finitePtr(e.Detectable, 2)
				c.Verdict, c.Reason = string(e.Verdict), e.Reason
			}
			out = append(out, c)
		}
	}
	return out
}

// WriteStudyJSON writes the study's matrix, headlines and warnings, and its record
// as the study wrote it.
func WriteStudyJSON(s *compare.Study, w io.Writer) error {
	doc := studyJSON{Study: s.Record.Name, Baseline: s.Systems[0], Systems: s.Systems, Confidence: stats.Confidence,
		Headlines: s.Headlines(), Warnings: studyWarnings(s), Record: s.Record}
	for _, sw := range s.Workloads {
		doc.Workloads = append(doc.Workloads, studyWorkloadJSON{Name: sw.Name, Kind: sw.Kind, Summary: sw.Summary,
			Missing: sw.Missing, Cells: studyCells(s, sw)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteStudyCSV writes the study's matrix, one row per cell under StudyCSVHeader;
// a baseline's row and a figure without an interval leave their columns empty.
func WriteStudyCSV(s *compare.Study, w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(StudyCSVHeader()); err != nil {
		return err
	}
	for _, sw := range s.Workloads {
		for _, c := range studyCells(s, sw) {
			rec := []string{sw.Name, sw.Kind, c.Step, c.Figure, c.System, s.Systems[0], csvPtr(c.Value),
				csvPtr(c.Change), csvPtr(c.Lo), csvPtr(c.Hi), csvPtr(c.Detectable), c.Verdict, c.Reason}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvPtr is a number's CSV text, "" for none.
func csvPtr(x *float64) string {
	if x == nil {
		return ""
	}
	return csvFloat(*x)
}
