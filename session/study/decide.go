package study

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/results/compare"
)

// repeatsNeeded is the number of repeats the study runs: Count, or with a target
// the number it settled on, else the budget.
func (s *study) repeatsNeeded() int {
	r := s.p.Repeats
	if r.Target > 0 && s.rec.Repeats.Done > 0 {
		return s.rec.Repeats.Done
	}
	return r.Count
}

// decideRepeats settles, after repeat r, whether a study with a repeats target
// has repeated enough: the widest detectable difference of the target's figures
// (every other system against the baseline) is under the target, or the budget
// is spent. It decides on the width of the intervals, never on whether they find
// a difference: stopping once a verdict appears would make verdicts appear.
func (s *study) decideRepeats(r int) error {
	t := s.p.Repeats
	rec := &s.rec.Repeats
	if t.Target == 0 || r < t.Min || rec.Done > 0 {
		return nil
	}
	cmp, err := compare.CompareStudy(s.p.Dir)
	if err != nil {
		return err
	}
	pct, where, ok := cmp.WidestDetectable(t.Figures)
	figs := strings.Join(t.Figures, ", ")
	switch {
	case ok && pct <= t.Target:
		rec.Done = r
		rec.Decided = fmt.Sprintf("after %d repeats the detectable difference of %s is at most %.1f %% (%s), under the %g %% target", r, figs, pct, where, t.Target)
	case r >= t.Max && ok:
		rec.Done = r
		rec.Decided = fmt.Sprintf("budget spent: after %d repeats the detectable difference of %s is still %.1f %% (%s), above the %g %% target", r, figs, pct, where, t.Target)
	case r >= t.Max:
		rec.Done = r
		rec.Decided = fmt.Sprintf("budget spent: after %d repeats %s still has no interval", r, figs)
	default:
		if ok {
			s.g.Logf("study %s: after %d repeats the detectable difference of %s is %.1f %% (%s), above the %g %% target: repeating", s.p.Name, r, figs, pct, where, t.Target)
		}
		return s.save()
	}
	s.g.Logf("study %s: %s", s.p.Name, rec.Decided)
	return s.save()
}
