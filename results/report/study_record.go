package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// What a study report says about the study itself beside its matrix: how it was
// planned, how its repeats were decided, how long it took against its estimate,
// what differs between the systems, and what its comparisons warn of.

// timeText is a time in UTC to the second, "-" when unknown.
func timeText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// studyTitle is "controllers (from controllers.yaml), baseline h800".
func studyTitle(s *compare.Study) string {
	t := results.Printable(s.Record.Name)
	if s.Record.Source != "" {
		t += " (from " + results.Printable(s.Record.Source) + ")"
	}
	return t + ", baseline " + results.Printable(s.Systems[0])
}

// studyRecordLines are the plan's order, the repeats' rule and why they stopped,
// the estimated against the actual duration, and why the study stopped early.
func studyRecordLines(s *compare.Study) []string {
	rec := s.Record
	done := 0
	for _, r := range rec.Runs {
		if r.Done() {
			done++
		}
	}
	order := results.Printable(rec.Order)
	if rec.Order == "random" {
		order += fmt.Sprintf(" (seed %d)", rec.Seed)
	}
	lines := []string{fmt.Sprintf("%d systems, %d workloads, %d runs recorded (%d finished), order %s",
		len(rec.Systems), len(rec.Workloads), len(rec.Runs), done, order)}
	lines = append(lines, "repeats: "+repeatsRule(rec.Repeats))
	if rec.Repeats.Decided != "" {
		lines = append(lines, "repeats decided: "+results.Printable(rec.Repeats.Decided))
	}
	lines = append(lines, durationLine(rec))
	if rec.Stopped != "" {
		lines = append(lines, "stopped: "+results.Printable(rec.Stopped))
	}
	return lines
}

// repeatsRule is "3" or "until the detectable difference of tps_e, disk.iops is
// under 5 % (at most 10 repeats)".
func repeatsRule(r results.StudyRepeats) string {
	if r.Target <= 0 {
		return fmt.Sprintf("%d a system", r.Count)
	}
	figs := make([]string, len(r.Figures))
	for i, f := range r.Figures {
		figs[i] = results.Printable(f)
	}
	return fmt.Sprintf("at least %d, then until the detectable difference of %s is under %g %% (at most %d)",
		r.Count, strings.Join(figs, ", "), r.Target, r.Max)
}

// durationLine is the plan's estimate beside what the runs took, first start to
// last finish.
func durationLine(rec *results.Study) string {
	var first, last time.Time
	for _, r := range rec.Runs {
		if !r.Started.IsZero() && (first.IsZero() || r.Started.Before(first)) {
			first = r.Started
		}
		if r.Finished.After(last) {
			last = r.Finished
		}
	}
	est := "not recorded"
	if rec.EstimatedS > 0 {
		est = results.SecondsDuration(rec.EstimatedS).Round(time.Second).String()
	}
	took := "-"
	if !first.IsZero() && last.After(first) {
		took = fmt.Sprintf("%s (%s to %s UTC)", last.Sub(first).Round(time.Second), timeText(first), timeText(last))
	}
	return fmt.Sprintf("duration: estimated %s, took %s", est, took)
}

// studyDiffers is "what differs" per system against the baseline: the storage and
// settings of the first OLTP workload that compared both (Comparison.Differences),
// else the profiles' targets (device, file system, size, direct I/O).
func studyDiffers(s *compare.Study) []differsBlock {
	var out []differsBlock
	for _, sys := range s.Systems[1:] {
		var items []string
		for _, w := range s.Workloads {
			r, ok := w.Side(sys)
			if !ok || r == 0 {
				continue
			}
			if w.Runs != nil {
				items = w.Runs.Differences(r)
				break
			}
			if items == nil {
				items = targetDiffers(w.Disks.Inputs[r], w.Disks.Inputs[0])
			}
		}
		if len(items) > 0 {
			out = append(out, differsBlock{Title: results.Printable(sys) + " vs " + results.Printable(s.Systems[0]), Items: items})
		}
	}
	return out
}

// targetDiffers are the differences of two storage-profile runs' targets.
func targetDiffers(a, b results.Input) []string {
	ta, tb := a.Run.Disk.Target, b.Run.Disk.Target
	var out []string
	add := func(name, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %s vs %s", name, orDashText(results.Printable(x)), orDashText(results.Printable(y))))
		}
	}
	add("target", ta.Path, tb.Path)
	add("device", ta.Device, tb.Device)
	add("file system", ta.Filesystem, tb.Filesystem)
	add("size", bytesize.Format(ta.SizeBytes), bytesize.Format(tb.SizeBytes))
	add("I/O", directText(a.Run.Disk.Direct), directText(b.Run.Disk.Direct))
	add("tags", formatTags(a.Run.Tags), formatTags(b.Run.Tags))
	return out
}

func directText(direct bool) string {
	if direct {
		return "direct"
	}
	return "buffered"
}

func orDashText(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// studyWarnings are what the workloads' comparisons warn of (regimes, bottlenecks,
// settling, storage-profile runs that measure different things), the steps they
// could not match and the systems they could not compare, each prefixed with its
// workload.
func studyWarnings(s *compare.Study) []string {
	var out []string
	for _, w := range s.Workloads {
		var ws []string
		switch {
		case w.Runs != nil:
			ws = append(append(w.Runs.RegimeWarnings(), w.Runs.BoundWarnings()...), w.Runs.SettleWarnings()...)
			for _, u := range w.Runs.Unmatched {
				ws = append(ws, fmt.Sprintf("%s at %s not compared: %s", w.Runs.Inputs[u.Run].Name(), usersText(u.Users), u.Reason))
			}
		case w.Disks != nil:
			ws = w.Disks.Warnings()
			for _, u := range w.Disks.Unmatched {
				ws = append(ws, "not compared: "+u)
			}
		}
		ws = append(ws, w.Missing...)
		for _, x := range ws {
			out = append(out, results.Printable(w.Name)+": "+x)
		}
	}
	return out
}
