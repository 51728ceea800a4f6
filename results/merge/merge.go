package merge

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// Merging the shard files of one sharded run (run --shard I/N) into one result
// file of the same format, as if one driver had run every shard's users
// (docs/result-format.md, "Merged files"). Counts are summed; response-time
// Figures come from the merged histograms, never from averaged percentiles; what
// belongs to each driver is kept per shard; storage figures, which every shard
// reads from the same database host, are taken once.

// MergeError is a set of files Merge refuses: they are not all the shards of one
// run, or a shard lacks what merging needs. Its message is one line naming the
// files and what differs.
type MergeError struct {
	Files []string // base names of the files concerned
	Msg   string
}

func (e *MergeError) Error() string { return "merge: " + e.Msg }

// measuredSlack is how far two shards' measured windows of one step may differ and
// still be the same plan: the windows are the plan's, and differ only by when each
// driver's timer fired (a partial step is exempt).
func measuredSlack(a, b float64) float64 { return math.Max(1, 0.02*math.Max(a, b)) }

// Merge combines the shard files of one run into one Run with Shards set and no
// Shard. Every shard 0..N-1 must be given exactly once, with the same seed, scale,
// start time, database product, limits and plan (steps, warm-up and measured
// windows; users may differ). w says which transaction types commit nothing, for
// the commits a step's WAL bytes are spread over. Refusals are *MergeError; a
// histogram that cannot be decoded, or that disagrees with its count, is a *FileError.
func Merge(inputs []results.Input, w results.Workload) (*results.Run, error) {
	shards, err := shardSet(inputs)
	if err != nil {
		return nil, err
	}
	steps, err := samePlan(shards)
	if err != nil {
		return nil, err
	}
	first := shards[0].Run
	out := &results.Run{
		Format:    results.FormatVersion,
		Label:     first.Label,
		Tags:      maps.Clone(first.Tags),
		Database:  first.Database,
		Scale:     first.Scale,
		Seed:      first.Seed,
		Options:   maps.Clone(first.Options),
		Tool:      first.Tool,
		Frames:    first.Frames,
		StartedAt: first.StartedAt,
		Limits:    maps.Clone(first.Limits),
		StartAt:   first.StartAt,
		Steps:     []results.Step{},
	}
	// The options are shard 0's as given; its --shard is not the merged file's.
	delete(out.Options, "shard")
	for _, in := range shards {
		r := in.Run
		if r.StartedAt.Before(out.StartedAt) {
			out.StartedAt = r.StartedAt
		}
		if r.FinishedAt.After(out.FinishedAt) {
			out.FinishedAt = r.FinishedAt
		}
		// A shard that stopped early stops the merged run early too.
		out.Interrupted = out.Interrupted || r.Interrupted
		out.Shards = append(out.Shards, results.MergedShard{
			Index: r.Shard.Index, File: filepath.Base(in.Path), ClockOffsetMS: r.Shard.ClockOffsetMS,
		})
	}
	lims, judged := results.LimitsOf(out)
	for i := range steps {
		parts := make([]shardStep, len(shards))
		for k, in := range shards {
			parts[k] = shardStep{path: in.Path, index: in.Run.Shard.Index, n: i + 1, st: &in.Run.Steps[i]}
			out.Shards[k].Driver = append(out.Shards[k].Driver, in.Run.Steps[i].Driver)
			out.Shards[k].DriverHost = append(out.Shards[k].DriverHost, in.Run.Steps[i].DriverHost)
		}
		st, err := mergeStep(parts, w)
		if err != nil {
			return nil, err
		}
		if judged {
			st.LimitsBroken = figures.BrokenLimits(lims, st)
		}
		figures.SetNominal(st, out.Scale.Customers)
		out.Steps = append(out.Steps, *st)
	}
	figures.SetStepFlags(out)
	return out, nil
}

// shardSet checks that inputs are every shard of one count exactly once, and
// returns them in shard order.
func shardSet(inputs []results.Input) ([]results.Input, error) {
	if len(inputs) == 0 {
		return nil, &MergeError{Msg: "no shard files given"}
	}
	for _, in := range inputs {
		name := filepath.Base(in.Path)
		switch {
		case in.Run == nil:
			return nil, &MergeError{Files: []string{name}, Msg: name + ": no run"}
		case len(in.Run.Shards) > 0:
			return nil, &MergeError{Files: []string{name}, Msg: name + " is already a merged file; merge takes the shard files of run --shard"}
		case in.Run.Shard == nil:
			return nil, &MergeError{Files: []string{name}, Msg: name + ` is not a shard file (it has no "shard"); merge takes the files of run --shard I/N`}
		case in.Run.Max != nil:
			return nil, &MergeError{Files: []string{name}, Msg: name + " is a --find-max run: each shard's probes are its own search and cannot be merged"}
		}
	}
	sorted := slices.Clone(inputs)
	slices.SortStableFunc(sorted, func(a, b results.Input) int { return cmp.Compare(a.Run.Shard.Index, b.Run.Shard.Index) })
	n := sorted[0].Run.Shard.Count
	for _, in := range sorted[1:] {
		if c := in.Run.Shard.Count; c != n {
			return nil, differ(sorted[0], in, "shard count", fmt.Sprint(n), fmt.Sprint(c))
		}
	}
	for _, in := range sorted {
		if sh := in.Run.Shard; sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
			name := filepath.Base(in.Path)
			return nil, &MergeError{Files: []string{name}, Msg: fmt.Sprintf("%s: shard %d/%d is not a shard of %d (want 0 to %d)", name, sh.Index, sh.Count, sh.Count, sh.Count-1)}
		}
	}
	for i := 1; i < len(sorted); i++ {
		if a, b := sorted[i-1], sorted[i]; a.Run.Shard.Index == b.Run.Shard.Index {
			na, nb := filepath.Base(a.Path), filepath.Base(b.Path)
			return nil, &MergeError{Files: []string{na, nb}, Msg: fmt.Sprintf("shard %d of %d is given twice: %s and %s", a.Run.Shard.Index, n, na, nb)}
		}
	}
	for i := 0; i < n; i++ {
		if i >= len(sorted) || sorted[i].Run.Shard.Index != i {
			return nil, &MergeError{Msg: fmt.Sprintf("shard %d of %d is missing (given: %s)", i, n, givenShards(sorted))}
		}
	}
	return sorted, nil
}

func givenShards(ins []results.Input) string {
	parts := make([]string, len(ins))
	for i, in := range ins {
		parts[i] = fmt.Sprintf("%d in %s", in.Run.Shard.Index, filepath.Base(in.Path))
	}
	return strings.Join(parts, ", ")
}

// differ is the refusal of two files that disagree on one field.
func differ(a, b results.Input, field, va, vb string) error {
	na, nb := filepath.Base(a.Path), filepath.Base(b.Path)
	return &MergeError{Files: []string{na, nb},
		Msg: fmt.Sprintf("%s and %s are not shards of one run: %s differs (%s vs %s)", na, nb, field, va, vb)}
}

// samePlan checks that every shard ran the same run as shard 0 and returns how
// many steps the merged file has. Shards may have fewer steps than others only
// when they were interrupted: the merged file then keeps the steps every shard
// has.
func samePlan(shards []results.Input) (int, error) {
	a := shards[0]
	ra := a.Run
	steps := len(ra.Steps)
	for _, b := range shards[1:] {
		rb := b.Run
		switch {
		case ra.Seed != rb.Seed:
			return 0, differ(a, b, "seed", fmt.Sprint(ra.Seed), fmt.Sprint(rb.Seed))
		case ra.Scale != rb.Scale:
			return 0, differ(a, b, "scale", describeScale(ra.Scale), describeScale(rb.Scale))
		case !sameInstant(ra.StartAt, rb.StartAt):
			return 0, differ(a, b, "start_at", describeInstant(ra.StartAt), describeInstant(rb.StartAt))
		case ra.Database.Product != rb.Database.Product:
			return 0, differ(a, b, "database product", ra.Database.Product, rb.Database.Product)
		case ra.FramesMode() != rb.FramesMode():
			return 0, differ(a, b, "frames", ra.FramesMode(), rb.FramesMode())
		case !maps.Equal(ra.Limits, rb.Limits):
			return 0, differ(a, b, "limits", describeLimits(ra.Limits), describeLimits(rb.Limits))
		}
		if len(ra.Steps) != len(rb.Steps) {
			short := a
			if len(rb.Steps) < len(ra.Steps) {
				short = b
			}
			if !short.Run.Interrupted {
				return 0, differ(a, b, "step count", fmt.Sprint(len(ra.Steps)), fmt.Sprint(len(rb.Steps)))
			}
		}
		steps = min(steps, len(rb.Steps))
	}
	for _, b := range shards[1:] {
		rb := b.Run
		for i := 0; i < steps; i++ {
			sa, sb := &ra.Steps[i], &rb.Steps[i]
			field := fmt.Sprintf("step %d", i+1)
			if math.Abs(sa.WarmupS-sb.WarmupS) > 0.01 {
				return 0, differ(a, b, field+" warm-up", fmt.Sprintf("%g s", sa.WarmupS), fmt.Sprintf("%g s", sb.WarmupS))
			}
			if !sa.Partial && !sb.Partial && math.Abs(sa.MeasuredS-sb.MeasuredS) > measuredSlack(sa.MeasuredS, sb.MeasuredS) {
				return 0, differ(a, b, field+" measured window", fmt.Sprintf("%g s", sa.MeasuredS), fmt.Sprintf("%g s", sb.MeasuredS))
			}
		}
	}
	return steps, nil
}

func describeScale(s results.Scale) string {
	return fmt.Sprintf("%d customers, %d trade days", s.Customers, s.TradeDays)
}

func sameInstant(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

func describeInstant(t *time.Time) string {
	if t == nil {
		return "none"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func describeLimits(l map[string]float64) string {
	if l == nil {
		return "none recorded"
	}
	keys := slices.Sorted(maps.Keys(l))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %g ms", k, l[k])
	}
	return strings.Join(parts, ", ")
}

// DescribeShards says, in a run's identity line, that a file is one shard of a run
// or a merge of several.
func DescribeShards(r *results.Run) []string {
	switch {
	case len(r.Shards) > 0:
		if len(r.Shards) == 1 {
			return []string{"merged from 1 shard"}
		}
		return []string{fmt.Sprintf("merged from %d shards", len(r.Shards))}
	case r.Shard != nil:
		return []string{fmt.Sprintf("shard %d of %d (0-based)", r.Shard.Index, r.Shard.Count)}
	}
	return nil
}
