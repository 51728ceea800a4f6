package merge

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// shardStep is one shard's step i, with where it came from for messages.
type shardStep struct {
	path  string
	index int // the shard's index
	n     int // 1-based step number
	st    *results.Step
}

func (p shardStep) where() string { return fmt.Sprintf("step %d (%d users)", p.n, p.st.Users) }

// ownMergedFlags are the flags merge recomputes; shards' other flags are kept.
var ownMergedFlags = []string{results.FlagPartial, results.FlagDriverBound, results.FlagKnee, results.FlagMemoryResident, figures.FlagOverNominal, results.FlagUnsteady, figures.FlagBehindSchedule}

// mergeStep combines one step of every shard (parts in shard order). Limits,
// nominal and the flags SetStepFlags owns are left to the caller.
func mergeStep(parts []shardStep, w results.Workload) (*results.Step, error) {
	first := parts[0].st
	st := &results.Step{StartedAt: first.StartedAt, WarmupS: first.WarmupS}
	var measured float64
	for _, p := range parts {
		s := p.st
		if s.StartedAt.Before(st.StartedAt) {
			st.StartedAt = s.StartedAt
		}
		st.Users += s.Users
		st.Statements += s.Statements
		// Rates add: the shards' windows are the plan's, the same within
		// measuredSlack, so the sum is the run's rate over the common window.
		st.TPS += s.TPS
		st.TPSE += s.TPSE
		st.Rate += s.Rate
		st.Partial = st.Partial || s.Partial
		measured += s.MeasuredS
		for _, f := range s.Flags {
			if !slices.Contains(ownMergedFlags, f) {
				results.AddFlag(st, f)
			}
		}
	}
	st.TPS, st.TPSE, st.Rate = results.Round(st.TPS, 2), results.Round(st.TPSE, 2), results.Round(st.Rate, 2)
	st.MeasuredS = results.Round(measured/float64(len(parts)), 2)
	txns, err := mergeTxns(parts)
	if err != nil {
		return nil, err
	}
	st.Transactions = txns
	st.Lag = mergeLag(parts)
	st.Faults = mergeFaults(parts)
	st.Driver = mergeDriver(parts)
	st.IO, st.CacheHitRatio = mergeStorage(parts, txns, w)
	st.Host = mergeHost(parts)
	if s, unsteady := mergeSteadiness(parts); s != nil {
		st.Steadiness = s
		if unsteady {
			results.AddFlag(st, results.FlagUnsteady)
		}
	}
	return st, nil
}

// mergeTxns sums every transaction type's counters and recomputes its figures
// from the union of the shards' histograms.
func mergeTxns(parts []shardStep) (map[string]results.TxnStats, error) {
	names := map[string]bool{}
	for _, p := range parts {
		for name := range p.st.Transactions {
			names[name] = true
		}
	}
	out := make(map[string]results.TxnStats, len(names))
	for _, name := range slices.Sorted(maps.Keys(names)) {
		var resps, svcs []*hdrhistogram.Histogram
		var errs, retries, rollbacks int64
		allSvc := true
		for _, p := range parts {
			t, ok := p.st.Transactions[name]
			if !ok {
				continue
			}
			errs, retries, rollbacks = errs+t.Errors, retries+t.Retries, rollbacks+t.Rollbacks
			if t.Count == 0 {
				continue // only failures: nothing was timed
			}
			resp, err := shardHistogram(p, name, "response_hist", t.Response, t.Count)
			if err != nil {
				return nil, err
			}
			resps = append(resps, resp)
			if t.Service == "" {
				allSvc = false
				continue
			}
			svc, err := shardHistogram(p, name, "service_hist", t.Service, t.Count)
			if err != nil {
				return nil, err
			}
			svcs = append(svcs, svc)
		}
		resp, _ := results.MergeHistograms(resps...)
		// Service figures of some shards only would pass for the whole step's.
		var svc *hdrhistogram.Histogram
		if allSvc {
			svc, _ = results.MergeHistograms(svcs...)
		}
		out[name] = results.Summarize(resp, svc, errs, retries, rollbacks)
	}
	results.SetShares(out)
	return out, nil
}

// shardHistogram decodes one shard's histogram and checks it holds the count the
// file states: a merged count must be the sum of the shards', and its percentiles
// those of the union of what they recorded.
func shardHistogram(p shardStep, txn, field, enc string, count int64) (*hdrhistogram.Histogram, error) {
	h, err := results.DecodeHistogram(enc)
	if errors.Is(err, results.ErrNoHistogram) {
		name := filepath.Base(p.path)
		return nil, &MergeError{Files: []string{name}, Msg: fmt.Sprintf(
			"%s: %s, %s has no %s: percentiles of several shards come only from their histograms (averaging percentiles is wrong), and files written by run --shard carry them",
			name, p.where(), txn, field)}
	}
	if err != nil {
		return nil, &results.FileError{Path: p.path, Err: fmt.Errorf("%s, %s %s: %w", p.where(), txn, field, err)}
	}
	if h.LowestTrackableValue() != results.HistLowestMicros || h.HighestTrackableValue() != results.HistHighestMicros || h.SignificantFigures() != results.HistSigFigs {
		return nil, &results.FileError{Path: p.path, Err: fmt.Errorf("%s, %s %s: not brokerbench's histogram geometry (%d..%d µs, %d digits)",
			p.where(), txn, field, h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures())}
	}
	if h.TotalCount() != count {
		return nil, &results.FileError{Path: p.path, Err: fmt.Errorf("%s, %s: count %d but its %s holds %d values", p.where(), txn, count, field, h.TotalCount())}
	}
	return h, nil
}

// mergeLag sums the late, dropped and owed starts; the worst delay is the worst
// shard's, and the average is over all late starts.
func mergeLag(parts []shardStep) results.Lag {
	var l results.Lag
	var delay float64
	for _, p := range parts {
		s := p.st.Lag
		l.Late += s.Late
		l.Missed += s.Missed
		l.Owed += s.Owed
		l.MaxMS = max(l.MaxMS, s.MaxMS)
		delay += s.AvgMS * float64(s.Late)
	}
	if l.Late > 0 {
		l.AvgMS = results.Round(delay/float64(l.Late), 2)
	}
	return l
}

// mergeFaults sums the shards' faults; nil when no shard saw any.
func mergeFaults(parts []shardStep) *results.Faults {
	var f *results.Faults
	for _, p := range parts {
		s := p.st.Faults
		if s == nil {
			continue
		}
		if f == nil {
			f = &results.Faults{}
		}
		f.ConnectionsLost += s.ConnectionsLost
		f.Reconnects += s.Reconnects
		// Each shard saw the same server: its worst outage stands for the step.
		f.ServerOutages = max(f.ServerOutages, s.ServerOutages)
		f.ServerDownS = max(f.ServerDownS, s.ServerDownS)
		f.ServerStalls = max(f.ServerStalls, s.ServerStalls)
		f.ServerStallS = max(f.ServerStallS, s.ServerStallS)
		f.ServerLost = f.ServerLost || s.ServerLost
		for class, n := range s.ByClass {
			if f.ByClass == nil {
				f.ByClass = map[string]int64{}
			}
			f.ByClass[class] += n
		}
	}
	return f
}

// mergeDriver is the worst shard's figure for each of the driver's own readings
// (each shard's are kept in Run.Shards): a step is driver-bound when any shard's
// driver was, and the reason says which.
func mergeDriver(parts []shardStep) results.DriverCheck {
	var d results.DriverCheck
	var why []string
	for _, p := range parts {
		s := p.st.Driver
		d.CPUPercent = max(d.CPUPercent, s.CPUPercent)
		d.GCPauseMS = max(d.GCPauseMS, s.GCPauseMS)
		d.SchedLagMS = max(d.SchedLagMS, s.SchedLagMS)
		d.PoolWaitMS = max(d.PoolWaitMS, s.PoolWaitMS)
		d.PoolWaits = max(d.PoolWaits, s.PoolWaits)
		if s.Bottleneck {
			d.Bottleneck = true
			w := fmt.Sprintf("shard %d", p.index)
			if s.BottleneckOn != "" {
				w += ": " + s.BottleneckOn
			}
			why = append(why, w)
		}
	}
	d.BottleneckOn = strings.Join(why, "; ")
	return d
}

// mergeStorage takes the storage figures and the cache hit ratio once: every shard
// reads the same database host, so adding them would count the disks N times.
// Shard 0's reading is preferred, else the first with a source; its
// per-transaction figures are rescaled to every shard's transactions.
func mergeStorage(parts []shardStep, txns map[string]results.TxnStats, w results.Workload) (*results.StepIO, *float64) {
	from := 0
	for k, p := range parts {
		if figures.IOKnown(p.st.IO) {
			from = k
			break
		}
	}
	var hit *float64
	hitFrom := -1
	for k, p := range parts {
		if p.st.CacheHitRatio != nil {
			v := *p.st.CacheHitRatio
			hit, hitFrom = &v, k
			break
		}
	}
	src := parts[from].st.IO
	if src == nil {
		return nil, hit
	}
	io := *src
	io.Devices = slices.Clone(src.Devices)
	io.Series = slices.Clone(src.Series)
	io.ReadsPerTxn, io.WritesPerTxn = nil, nil
	var notes []string
	if figures.IOKnown(src) {
		notes = append(notes, fmt.Sprintf("storage figures from shard %d's reading (every shard reads the same database host)", parts[from].index))
		rescaleIO(&io, src, parts[from].st, txns, w)
	}
	if hitFrom >= 0 && hitFrom != from {
		notes = append(notes, fmt.Sprintf("cache hit ratio from shard %d", parts[hitFrom].index))
	}
	if src.Note != "" {
		notes = append(notes, src.Note)
	}
	io.Note = strings.Join(notes, "; ")
	return &io, hit
}

// rescaleIO turns the figures per transaction (and per commit) of one shard's
// reading into figures per transaction of all shards: the disks served everyone's.
func rescaleIO(io, src *results.StepIO, own *results.Step, txns map[string]results.TxnStats, w results.Workload) {
	ownTxns, allTxns := TxnCount(own.Transactions), TxnCount(txns)
	scale := func(v float64, part, all int64) float64 {
		if part <= 0 || all <= 0 {
			return 0
		}
		return v * float64(part) / float64(all)
	}
	io.IOPerTxn = scale(src.IOPerTxn, ownTxns, allTxns)
	if src.ReadsPerTxn != nil && ownTxns > 0 {
		r, w := results.Round(scale(*src.ReadsPerTxn, ownTxns, allTxns), 4), 0.0
		if src.WritesPerTxn != nil {
			w = results.Round(scale(*src.WritesPerTxn, ownTxns, allTxns), 4)
		}
		io.ReadsPerTxn, io.WritesPerTxn = &r, &w
	}
	io.WALBytesPerCommit = scale(src.WALBytesPerCommit, CommitCount(own.Transactions, w), CommitCount(txns, w))
}

func TxnCount(txns map[string]results.TxnStats) int64 {
	var n int64
	for _, t := range txns {
		n += t.Count
	}
	return n
}

// CommitCount counts what the driver counts as commits: transactions that write
// (w says which do not) and did not roll back. merge needs it to rescale WAL bytes
// per commit to all shards' commits.
func CommitCount(txns map[string]results.TxnStats, w results.Workload) int64 {
	var n int64
	for name, t := range txns {
		if !w.ReadOnly(name) {
			n += t.Count - t.Rollbacks
		}
	}
	return n
}

// mergeSteadiness combines the shards' steadiness, which cannot be recomputed: the
// files hold no per-second series. The half change is weighted by each shard's tps
// (the merged series' first-half mean is the sum of the shards', so this is exact
// when a shard's tps over the window matches its first half's); the weighted
// coefficient of variation is an upper bound of the merged series' (the standard
// deviation of a sum is at most the sum of theirs). The step is unsteady when any
// shard's was: a drift in part of the load is a drift.
func mergeSteadiness(parts []shardStep) (*results.Steadiness, bool) {
	var s *results.Steadiness
	var weight, cv, change float64
	unsteady := false
	for _, p := range parts {
		ps := p.st.Steadiness
		if ps == nil {
			continue
		}
		if s == nil {
			s = &results.Steadiness{Seconds: ps.Seconds}
		}
		s.Seconds = min(s.Seconds, ps.Seconds)
		weight += p.st.TPS
		cv += p.st.TPS * ps.TPSCV
		change += p.st.TPS * ps.HalfChange
		unsteady = unsteady || results.HasFlag(p.st, results.FlagUnsteady)
	}
	if s != nil && weight > 0 {
		s.TPSCV, s.HalfChange = results.Round(cv/weight, 4), results.Round(change/weight, 4)
	}
	return s, unsteady
}
