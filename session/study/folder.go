package study

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// newRecord is the record of a study about to start on p.
func (p *Plan) newRecord(tool string) *results.Study {
	rec := &results.Study{Name: p.Name, Tool: tool, Source: p.Source, Baseline: p.Baseline, Order: p.Order, Seed: p.Seed,
		Repeats: results.StudyRepeats{Count: p.Repeats.Count, Target: p.Repeats.Target, Figures: p.Repeats.Figures, Max: p.Repeats.Max},
		Started: time.Now().UTC()}
	for _, s := range p.Systems {
		tags := map[string]string{}
		for k, v := range s.Tags {
			tags[k] = v
		}
		rec.Systems = append(rec.Systems, results.StudySystem{Name: s.Name, Tags: tags, Where: where(s, p.hasRuns())})
	}
	for _, w := range p.Workloads {
		rec.Workloads = append(rec.Workloads, results.StudyWorkload{Name: w.Name, Kind: w.Kind, Summary: w.Summary, EstimatedS: w.Estimate.Seconds()})
	}
	return rec
}

// openFolder makes the study folder and its record, or with resume reads the
// record of the study the folder holds. A folder brokerbench did not make for
// this study is refused: one holding anything but a study, another study, or this
// study without resume.
func (p *Plan) openFolder(tool string, resume bool) (*results.Study, error) {
	fresh := p.newRecord(tool)
	entries, err := os.ReadDir(p.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if resume {
			return nil, session.Usagef("--resume: no study folder %s to resume; run without --resume to start it", p.Dir)
		}
		if err := os.Mkdir(p.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("study folder: %w", err)
		}
		return fresh, nil
	case err != nil:
		return nil, fmt.Errorf("study folder %s: %w", p.Dir, err)
	case len(entries) == 0:
		if resume {
			return nil, session.Usagef("--resume: %s is empty, no study to resume", p.Dir)
		}
		return fresh, nil
	case !results.IsStudyFolder(p.Dir):
		return nil, session.Usagef("%s exists and holds files that are not a study's: brokerbench writes a study only into a folder it made (give another out:, or move it away)", p.Dir)
	}
	rec, err := results.ReadStudy(p.Dir)
	if err != nil {
		return nil, err
	}
	if !resume {
		return nil, session.Usagef("%s already holds study %s: continue it with --resume, or give another out:", p.Dir, rec.Name)
	}
	if why := p.differs(rec, fresh); why != "" {
		return nil, session.Usagef("--resume: the study file no longer describes the study in %s (%s): a resumed study runs the same plan", p.Dir, why)
	}
	return rec, nil
}

// differs says what keeps the record rec from being resumed with the plan whose
// fresh record is p: other systems, workloads, order or repeats.
func (p *Plan) differs(rec, fresh *results.Study) string {
	names := func(ss []results.StudySystem) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	switch {
	case rec.Name != fresh.Name:
		return fmt.Sprintf("name %s, was %s", fresh.Name, rec.Name)
	case !slices.Equal(names(rec.Systems), names(fresh.Systems)):
		return "other systems"
	case !slices.EqualFunc(rec.Workloads, fresh.Workloads, func(a, b results.StudyWorkload) bool {
		return a.Name == b.Name && a.Kind == b.Kind && a.Summary == b.Summary
	}):
		return "other workloads"
	case rec.Baseline != fresh.Baseline:
		return "another baseline"
	case rec.Order != fresh.Order || rec.Order == "random" && p.seedGiven && p.Seed != rec.Seed:
		return "another order"
	}
	if p.Order == "random" {
		p.Seed = rec.Seed // the same shuffle as before the interruption
	}
	rec.Repeats.Count, rec.Repeats.Target, rec.Repeats.Figures, rec.Repeats.Max = fresh.Repeats.Count, fresh.Repeats.Target, fresh.Repeats.Figures, fresh.Repeats.Max
	return ""
}
