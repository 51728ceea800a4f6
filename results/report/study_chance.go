package report

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results/compare"
)

// studyChanceLine says how many of the matrix's verdicts chance alone gives. Each
// cell is judged at 95 %: when two systems do not differ at all, one cell in
// twenty still reads better or worse (an A/A study of two folders on one disk
// called one of its 26 judged cells better: write p99 "-31 % [-48 … -9]"). A matrix
// of dozens of cells has a few such; the reader is told so beside the count that did, rather
// than each verdict being taken on its own. "" when nothing was judged.
func studyChanceLine(s *compare.Study) string {
	judged, real := 0, 0
	for _, sw := range s.Workloads {
		for _, row := range studyRows(s, sw) {
			for _, c := range row.Cells {
				if c.Est == nil || !c.Est.HasInterval() || c.Est.Verdict == compare.VerdictNone {
					continue
				}
				judged++
				if c.Est.Verdict.Significant() {
					real++
				}
			}
		}
	}
	if judged == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d judged cells read better, worse, higher or lower. Each is judged at 95 %%: where the systems do not differ, about 1 in 20 (here %.1f) still would, by chance. Act on the headlines and on changes that agree across steps and figures, not on one cell alone.",
		real, judged, float64(judged)/20)
}
