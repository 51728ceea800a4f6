package figures

import (
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

func settleOf(tps []float64, reads []float64, autovacuumLast float64) *results.Settle {
	s := &results.Settle{WindowS: 15, MaxS: 300}
	for i, x := range tps {
		w := results.SettleWindow{TPS: x}
		if reads != nil {
			r := reads[i]
			w.ReadsPerTxn = &r
		}
		s.Windows = append(s.Windows, w)
	}
	if n := len(s.Windows); n > 0 {
		s.Windows[n-1].AutovacuumS = autovacuumLast
	}
	JudgeSettle(s)
	return s
}

// TestSettleJudge pins the settling rule: the last three windows' tps and reads per
// transaction within a tenth of each other and within a twentieth of the three
// before, and no long autovacuum in the last.
func TestSettleJudge(t *testing.T) {
	flat := []float64{22, 22, 22, 22, 22, 22}
	for _, c := range []struct {
		name   string
		tps    []float64
		reads  []float64
		av     float64
		steady bool
		says   string
	}{
		{"too few windows", []float64{700, 700, 700, 700, 700}, nil, 0, false, "5 of the 6 windows"},
		{"climbing after a load", []float64{300, 327, 419, 427, 500, 560}, flat, 0, false, "tps 427, 500, 560"},
		{"a slow climb: each window a little above the last", []float64{551, 565, 580, 595, 610, 625}, flat, 0, false, "tps 595, 610, 625 after 551, 565, 580 (+8 %)"},
		{"steady at last", []float64{327, 419, 690, 705, 700, 710, 700, 705}, []float64{22, 21, 22, 22.5, 22, 22, 22.3, 22.1}, 0, true, "tps within 1 % (+1 % on the 3 windows before), reads per transaction 22.0 to 22.3"},
		{"the cache still filling", []float64{700, 705, 698, 700, 705, 698}, []float64{4, 3.5, 3, 2.9, 2.8, 2.7}, 0, false, "reads per transaction 2.9, 2.8, 2.7 after 4.0, 3.5, 3.0"},
		{"the cache filling fast", []float64{700, 705, 698, 700, 705, 698}, []float64{3, 3, 3, 2.9, 1.1, 0.3}, 0, false, "reads per transaction 2.9, 1.1, 0.3"},
		{"cached: reads near zero", []float64{2000, 2050, 2020, 2000, 2050, 2020}, []float64{0.3, 0.2, 0.1, 0.01, 0.02, 0.3}, 0, true, "reads per transaction 0.0 to 0.3"},
		{"reads a tenth apart", []float64{700, 700, 700, 700, 700, 700}, []float64{21, 21, 21, 20, 21, 22.5}, 0, false, "reads per transaction 20.0, 21.0, 22.5"},
		{"autovacuum through the last window", []float64{700, 700, 700, 700, 700, 700}, flat, 8, false, "autovacuum ran 8 s"},
		{"a short autovacuum is the steady state", []float64{700, 700, 700, 700, 700, 700}, flat, 2, true, ""},
		{"no I/O figures: tps alone", []float64{700, 720, 710, 700, 720, 710}, nil, 0, true, "tps within 3 % (+0 % on the 3 windows before)"},
		{"no work at all", []float64{0, 0, 0, 0, 0, 0}, nil, 0, false, "tps 0, 0, 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := settleOf(c.tps, c.reads, c.av)
			if s.Steady != c.steady || !strings.Contains(s.Why, c.says) {
				t.Fatalf("steady %v, why %q; want %v saying %q", s.Steady, s.Why, c.steady, c.says)
			}
		})
	}
}

// TestSettleSummary: the one line says how long, and advises when it never settled.
func TestSettleSummary(t *testing.T) {
	s := settleOf([]float64{690, 710, 700, 690, 710, 700}, nil, 0)
	if got := s.Summary(); !strings.HasPrefix(got, "settled in 1m30s (6 windows of 15s): tps within 3 %") {
		t.Errorf("steady: %q", got)
	}
	s = settleOf([]float64{300, 400, 500}, nil, 0)
	if got := s.Summary(); !strings.HasPrefix(got, "not steady after 45s") || !strings.Contains(got, "lengthen --settle") {
		t.Errorf("unsteady: %q", got)
	}
}
