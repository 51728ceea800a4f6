package merge_test

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/internal/testkit/shardfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/merge"
)

func mustMerge(t *testing.T, in []results.Input) *results.Run {
	t.Helper()
	m, err := merge.Merge(in, runfixture.Workload())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// storedFigures are a transaction's stored numbers without the encoded histograms.
func storedFigures(s results.TxnStats) results.TxnStats {
	s.Response, s.Service = "", ""
	return s
}

// cloneInputs deep-copies shard files, as a JSON round trip: cheaper than
// recording them again.
func cloneInputs(t *testing.T, in []results.Input) []results.Input {
	t.Helper()
	out := make([]results.Input, len(in))
	for i, x := range in {
		data, err := json.Marshal(x.Run)
		if err != nil {
			t.Fatal(err)
		}
		r, err := results.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = results.Input{Path: x.Path, Run: r}
	}
	return out
}

func TestMergeSumsCountsAndRecomputesPercentiles(t *testing.T) {
	fx := shardfixture.RecordedShards(3, []int{2, 4})
	m := mustMerge(t, fx.Shards)
	if m.Shard != nil || len(m.Shards) != 3 || m.Seed != 7 || m.StartAt == nil || !m.StartAt.Equal(shardfixture.Start) {
		t.Fatalf("identity: shard %v, shards %d, seed %d, start_at %v", m.Shard, len(m.Shards), m.Seed, m.StartAt)
	}
	if _, ok := m.Options["shard"]; ok || m.Options["users"] != "2,4" {
		t.Errorf("options %v: want shard 0's without its shard", m.Options)
	}
	if !m.StartedAt.Equal(shardfixture.Start) || !m.FinishedAt.Equal(fx.Shards[2].Run.FinishedAt) {
		t.Errorf("started %v finished %v: want the earliest start and the latest finish", m.StartedAt, m.FinishedAt)
	}
	for k, sh := range m.Shards {
		if sh.Index != k || sh.File != filepath.Base(fx.Shards[k].Path) || sh.ClockOffsetMS != 0.25*float64(k) || len(sh.Driver) != 2 {
			t.Errorf("shards[%d] = %+v", k, sh)
		}
		if sh.Driver[1] != fx.Shards[k].Run.Steps[1].Driver {
			t.Errorf("shards[%d] driver %+v, want the shard's own %+v", k, sh.Driver[1], fx.Shards[k].Run.Steps[1].Driver)
		}
	}
	if len(m.Steps) != 2 {
		t.Fatalf("%d steps", len(m.Steps))
	}
	for i := range m.Steps {
		st, want := &m.Steps[i], &fx.Union.Steps[i]
		var users int
		var statements, late, missed int64
		var tps, tpsE, lagMax, lagDelay float64
		counts := map[string][4]int64{}
		for _, sh := range fx.Shards {
			s := &sh.Run.Steps[i]
			users += s.Users
			statements += s.Statements
			tps += s.TPS
			tpsE += s.TPSE
			late += s.Lag.Late
			missed += s.Lag.Missed
			lagMax = math.Max(lagMax, s.Lag.MaxMS)
			lagDelay += s.Lag.AvgMS * float64(s.Lag.Late)
			for name, tx := range s.Transactions {
				c := counts[name]
				counts[name] = [4]int64{c[0] + tx.Count, c[1] + tx.Errors, c[2] + tx.Retries, c[3] + tx.Rollbacks}
			}
		}
		if st.Users != users || st.Users != want.Users || st.Statements != statements {
			t.Errorf("step %d: users %d statements %d, want %d and %d", i, st.Users, st.Statements, users, statements)
		}
		if st.TPS != results.Round(tps, 2) || st.TPSE != results.Round(tpsE, 2) {
			t.Errorf("step %d: tps %g tpsE %g, want the sums %g %g", i, st.TPS, st.TPSE, tps, tpsE)
		}
		if st.MeasuredS != 50.01 || st.WarmupS != 10 || !st.StartedAt.Equal(fx.Shards[0].Run.Steps[i].StartedAt) {
			t.Errorf("step %d: window %v + %g s, %g s measured", i, st.StartedAt, st.WarmupS, st.MeasuredS)
		}
		if st.Lag.Late != late || st.Lag.Missed != missed || st.Lag.MaxMS != lagMax || st.Lag.AvgMS != results.Round(lagDelay/float64(late), 2) {
			t.Errorf("step %d: lag %+v", i, st.Lag)
		}
		if st.Faults == nil || st.Faults.ConnectionsLost != 1 || st.Faults.ByClass["connection"] != 1 {
			t.Errorf("step %d: faults %+v, want shard 1's", i, st.Faults)
		}
		var share float64
		for name, tx := range st.Transactions {
			c := counts[name]
			if tx.Count != c[0] || tx.Errors != c[1] || tx.Retries != c[2] || tx.Rollbacks != c[3] {
				t.Errorf("step %d %s: count/errors/retries/rollbacks %d/%d/%d/%d, want the sums %v", i, name, tx.Count, tx.Errors, tx.Retries, tx.Rollbacks, c)
			}
			// The union recorder saw every transaction once: its percentiles are what
			// one driver would have measured.
			if got, w := storedFigures(tx), storedFigures(want.Transactions[name]); got != w {
				t.Errorf("step %d %s:\n merged %+v\n  union %+v", i, name, got, w)
			}
			share += tx.Share
		}
		if len(st.Transactions) != len(shardfixture.Txns) || math.Abs(share-1) > 1e-9 {
			t.Errorf("step %d: %d transactions, shares sum to %g", i, len(st.Transactions), share)
		}
		if !reflect.DeepEqual(st.LimitsBroken, figures.BrokenLimits(runfixture.Workload().DefaultLimits(), st)) {
			t.Errorf("step %d: limits_broken %v not recomputed", i, st.LimitsBroken)
		}
		if st.NominalPercent != math.Round(st.TPSE/2*1000)/10 || results.HasFlag(st, figures.FlagOverNominal) != figures.OverNominal(st, 1000) {
			t.Errorf("step %d: nominal %g %% for tpsE %g of 1000 customers, flags %v", i, st.NominalPercent, st.TPSE, st.Flags)
		}
	}
}

func TestMergeKeepsOneStorageReading(t *testing.T) {
	fx := shardfixture.RecordedShards(3, []int{2, 4})
	m := mustMerge(t, fx.Shards)
	own := &fx.Shards[0].Run.Steps[0]
	st := &m.Steps[0]
	if st.IO == nil || st.IO.ReadIOPS != own.IO.ReadIOPS || !strings.Contains(st.IO.Note, "shard 0") {
		t.Fatalf("io %+v: want shard 0's reading, said so", st.IO)
	}
	ratio := float64(merge.TxnCount(own.Transactions)) / float64(merge.TxnCount(st.Transactions))
	if got, want := *st.IO.ReadsPerTxn, results.Round(*own.IO.ReadsPerTxn*ratio, 4); got != want {
		t.Errorf("reads/txn %g, want shard 0's over every shard's transactions %g", got, want)
	}
	if got, want := st.IO.WALBytesPerCommit, 8192*float64(merge.CommitCount(own.Transactions, runfixture.Workload()))/float64(merge.CommitCount(st.Transactions, runfixture.Workload())); math.Abs(got-want) > 1e-9 {
		t.Errorf("wal bytes/commit %g, want %g", got, want)
	}
	// Commits leave out Trade-Status, the fixture's read-only type, as the workload says.
	var commits int64
	for _, name := range []string{"Trade-Order", "Trade-Result", "Market-Feed"} {
		commits += st.Transactions[name].Count - st.Transactions[name].Rollbacks
	}
	if got := merge.CommitCount(st.Transactions, runfixture.Workload()); got != commits || st.Transactions["Trade-Status"].Count == 0 {
		t.Errorf("%d commits, want %d: the writing types' counts less their rollbacks", got, commits)
	}
	if *st.CacheHitRatio != *own.CacheHitRatio {
		t.Errorf("hit ratio %g, want shard 0's %g", *st.CacheHitRatio, *own.CacheHitRatio)
	}
	if *own.IO.ReadsPerTxn == *st.IO.ReadsPerTxn {
		t.Fatal("the merge changed the shard's own figures")
	}

	// Shard 0 without a source: the first shard with one.
	fx = shardfixture.RecordedShards(3, []int{2})
	fx.Shards[0].Run.Steps[0].IO = &results.StepIO{Source: "none", Note: "no access"}
	fx.Shards[0].Run.Steps[0].CacheHitRatio = nil
	st = &mustMerge(t, fx.Shards).Steps[0]
	if st.IO.Source != "diskstats" || st.IO.ReadIOPS != 101 || !strings.Contains(st.IO.Note, "shard 1") || *st.CacheHitRatio != 0.94 {
		t.Errorf("io %+v hit %g: want shard 1's", st.IO, *st.CacheHitRatio)
	}
}

func TestMergeDriverAndFlags(t *testing.T) {
	fx := shardfixture.RecordedShards(3, []int{2, 4})
	fx.Shards[2].Run.Steps[1].Driver.Bottleneck = true
	fx.Shards[2].Run.Steps[1].Driver.BottleneckOn = "CPU 98 %"
	fx.Shards[1].Run.Steps[1].Flags = append(fx.Shards[1].Run.Steps[1].Flags, results.FlagUnsteady, "future-flag")
	m := mustMerge(t, fx.Shards)
	d := m.Steps[1].Driver
	if !d.Bottleneck || d.BottleneckOn != "shard 2: CPU 98 %" || d.CPUPercent != 22 || d.PoolWaits != 2 {
		t.Errorf("driver %+v: want shard 2 named, the worst figures", d)
	}
	if m.Steps[0].Driver.Bottleneck || results.HasFlag(&m.Steps[0], results.FlagDriverBound) {
		t.Error("step 1 is driver-bound: no shard's driver was")
	}
	for _, f := range []string{results.FlagDriverBound, results.FlagUnsteady, "future-flag", figures.FlagOverNominal} {
		if !results.HasFlag(&m.Steps[1], f) {
			t.Errorf("step 2 flags %v: no %s", m.Steps[1].Flags, f)
		}
	}
	s := m.Steps[1].Steadiness
	var w, hc float64
	for _, sh := range fx.Shards {
		w += sh.Run.Steps[1].TPS
		hc += sh.Run.Steps[1].TPS * sh.Run.Steps[1].Steadiness.HalfChange
	}
	if s == nil || s.Seconds != 50 || s.HalfChange != results.Round(hc/w, 4) || s.TPSCV < 0.05 || s.TPSCV > 0.15 {
		t.Errorf("steadiness %+v", s)
	}
}

func TestMergeOneShardIsThatShard(t *testing.T) {
	fx := shardfixture.RecordedShards(1, []int{2, 4})
	own := fx.Shards[0].Run
	m := mustMerge(t, fx.Shards)
	for i := range own.Steps {
		a, b := own.Steps[i], m.Steps[i]
		if a.Users != b.Users || a.TPS != b.TPS || a.TPSE != b.TPSE || a.MeasuredS != b.MeasuredS || a.Statements != b.Statements ||
			a.Lag != b.Lag || a.Driver != b.Driver || a.NominalPercent != b.NominalPercent || !slices.Equal(a.Flags, b.Flags) ||
			*a.IO.ReadsPerTxn != *b.IO.ReadsPerTxn || a.IO.ReadIOPS != b.IO.ReadIOPS || !reflect.DeepEqual(a.Steadiness, b.Steadiness) {
			t.Errorf("step %d:\n shard  %+v\n merged %+v", i, a, b)
		}
		for name, tx := range a.Transactions {
			if storedFigures(tx) != storedFigures(b.Transactions[name]) {
				t.Errorf("step %d %s: %+v, merged %+v", i, name, storedFigures(tx), storedFigures(b.Transactions[name]))
			}
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	cases := []struct {
		name    string
		breakIt func(in []results.Input) []results.Input
		want    []string
	}{
		{"missing shard", func(in []results.Input) []results.Input { return append(in[:1], in[2:]...) }, []string{"shard 1 of 3 is missing", "0 in shard-0.json, 2 in shard-2.json"}},
		{"duplicate shard", func(in []results.Input) []results.Input {
			return append(in, results.Input{Path: "again.json", Run: in[1].Run})
		}, []string{"shard 1 of 3 is given twice", "shard-1.json and again.json"}},
		{"shard count", func(in []results.Input) []results.Input { in[2].Run.Shard.Count = 4; return in }, []string{"shard-0.json and shard-2.json", "shard count differs (3 vs 4)"}},
		{"index out of range", func(in []results.Input) []results.Input {
			for _, x := range in {
				x.Run.Shard.Count = 2
			}
			return in
		}, []string{"shard-2.json: shard 2/2"}},
		{"seed", func(in []results.Input) []results.Input { in[1].Run.Seed = 8; return in }, []string{"shard-0.json and shard-1.json are not shards of one run", "seed differs (7 vs 8)"}},
		{"scale", func(in []results.Input) []results.Input { in[2].Run.Scale.Customers = 2000; return in }, []string{"shard-2.json", "scale differs (1000 customers, 5 trade days vs 2000 customers"}},
		{"start", func(in []results.Input) []results.Input {
			t := shardfixture.Start.Add(time.Minute)
			in[1].Run.StartAt = &t
			return in
		}, []string{"start_at differs (2026-12-01T04:00:00Z vs 2026-12-01T04:01:00Z)"}},
		{"no start", func(in []results.Input) []results.Input { in[1].Run.StartAt = nil; return in }, []string{"start_at differs (2026-12-01T04:00:00Z vs none)"}},
		{"product", func(in []results.Input) []results.Input { in[1].Run.Database.Product = "SQL Server"; return in }, []string{"database product differs (PostgreSQL vs SQL Server)"}},
		{"frames", func(in []results.Input) []results.Input { in[1].Run.Frames = results.FramesServer; return in }, []string{"frames differs (client vs server)"}},
		{"limits", func(in []results.Input) []results.Input {
			in[1].Run.Limits = map[string]float64{"Trade-Status": 500}
			return in
		}, []string{"limits differs (Broker-Volume 3000 ms"}},
		{"step count", func(in []results.Input) []results.Input { in[1].Run.Steps = in[1].Run.Steps[:1]; return in }, []string{"step count differs (2 vs 1)"}},
		{"warm-up", func(in []results.Input) []results.Input { in[2].Run.Steps[1].WarmupS = 20; return in }, []string{"step 2 warm-up differs (10 s vs 20 s)"}},
		{"measured", func(in []results.Input) []results.Input { in[2].Run.Steps[0].MeasuredS = 110; return in }, []string{"step 1 measured window differs (50 s vs 110 s)"}},
		{"not a shard", func(in []results.Input) []results.Input { in[1].Run.Shard = nil; return in }, []string{`shard-1.json is not a shard file (it has no "shard")`}},
		{"merged file", func(in []results.Input) []results.Input { in[1].Run.Shards = []results.MergedShard{{}}; return in }, []string{"shard-1.json is already a merged file"}},
		{"find-max", func(in []results.Input) []results.Input { in[0].Run.Max = &results.Max{}; return in }, []string{"shard-0.json is a --find-max run"}},
		{"no histogram", func(in []results.Input) []results.Input {
			tx := in[1].Run.Steps[1].Transactions["Trade-Order"]
			tx.Response = ""
			in[1].Run.Steps[1].Transactions["Trade-Order"] = tx
			return in
		}, []string{"shard-1.json: step 2 (5 users), Trade-Order has no response_hist", "averaging percentiles is wrong"}},
		{"nothing", func([]results.Input) []results.Input { return nil }, []string{"no shard files given"}},
	}
	fixture := shardfixture.RecordedShards(3, []int{2, 4}).Shards
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := merge.Merge(c.breakIt(cloneInputs(t, fixture)), runfixture.Workload())
			var me *merge.MergeError
			if !errors.As(err, &me) {
				t.Fatalf("err %v (%T), want a MergeError", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("%q: not one line", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q: want %q", msg, w)
				}
			}
		})
	}
}

func TestMergeRefusesBadHistograms(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*results.TxnStats)
		want string
	}{
		{"corrupt", func(tx *results.TxnStats) { tx.Response = "not a histogram" }, "result file out/shard-2.json: step 1 (4 users), Trade-Result response_hist: decode histogram"},
		{"count", func(tx *results.TxnStats) { tx.Count++ }, "Trade-Result: count"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := shardfixture.RecordedShards(3, []int{2}).Shards
			tx := in[2].Run.Steps[0].Transactions["Trade-Result"]
			c.edit(&tx)
			in[2].Run.Steps[0].Transactions["Trade-Result"] = tx
			_, err := merge.Merge(in, runfixture.Workload())
			var fe *results.FileError
			if !errors.As(err, &fe) || fe.Path != in[2].Path || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want a FileError on %s containing %q", err, in[2].Path, c.want)
			}
		})
	}
}

func TestMergeInterruptedShard(t *testing.T) {
	in := shardfixture.RecordedShards(3, []int{2, 4}).Shards
	r := in[1].Run
	r.Steps = r.Steps[:1]
	r.Steps[0].Partial = true
	r.Steps[0].MeasuredS = 20 // cut short: not held to the others' window
	r.Interrupted = true
	m := mustMerge(t, in)
	if !m.Interrupted || len(m.Steps) != 1 || !m.Steps[0].Partial || !results.HasFlag(&m.Steps[0], results.FlagPartial) {
		t.Fatalf("interrupted %v, %d steps, step 1 partial %v flags %v: want the steps every shard has, partial",
			m.Interrupted, len(m.Steps), m.Steps[0].Partial, m.Steps[0].Flags)
	}
	for _, sh := range m.Shards {
		if len(sh.Driver) != 1 {
			t.Errorf("shard %d: %d driver readings for 1 step", sh.Index, len(sh.Driver))
		}
	}
}
