package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/record"
)

var mergeTxnNames = []string{"Trade-Order", "Trade-Result", "Trade-Status"}

// writeShardFiles writes the n shard files of one two-step run, each recorded
// through a results.Recorder as the driver records, and the file one driver
// recording every shard's transactions would have written (union.json).
func writeShardFiles(t *testing.T, dir string, n int) (shards []string, union string) {
	t.Helper()
	start := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	one := &results.Run{Format: results.FormatVersion, Label: "one driver", Seed: 3, Scale: results.Scale{Customers: 1000, TradeDays: 5},
		Database: results.Database{Product: "PostgreSQL"}, Limits: driver.Workload().DefaultLimits().Record()}
	unionRecs := []*record.Recorder{record.NewRecorder(start), record.NewRecorder(start)}
	for k := 0; k < n; k++ {
		rng := rand.New(rand.NewPCG(uint64(k), 5))
		r := &results.Run{Format: results.FormatVersion, Label: "sharded", Seed: 3, Scale: one.Scale, Database: one.Database,
			StartedAt: start, StartAt: &start, Limits: one.Limits, Options: map[string]any{"shard": fmt.Sprintf("%d/%d", k, n)},
			Shard: &results.Shard{Index: k, Count: n}}
		for i, users := range []int{2, 4} {
			rec := record.NewRecorder(start)
			h, uh := rec.Handle(), unionRecs[i].Handle()
			for j, name := range mergeTxnNames {
				for v := 0; v < 30*(k+1)*(i+1)/(j+1); v++ {
					d := time.Duration(rng.ExpFloat64() * float64(users*(j+1)) * float64(time.Millisecond))
					h.Record(name, d, d/2, record.Outcome{Retries: v % 2})
					uh.Record(name, d, d/2, record.Outcome{Retries: v % 2})
				}
			}
			txns, _ := rec.Window()
			var total int64
			for _, tx := range txns {
				total += tx.Count
			}
			r.Steps = append(r.Steps, results.Step{Users: users, StartedAt: start.Add(time.Duration(i) * time.Minute), WarmupS: 10, MeasuredS: 50,
				TPS: float64(total) / 50, TPSE: float64(txns["Trade-Result"].Count) / 50, Transactions: txns})
		}
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		if err := results.Write(p, r); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, p)
	}
	for i, users := range []int{2, 4} {
		txns, _ := unionRecs[i].Window()
		one.Steps = append(one.Steps, results.Step{Users: n * users, WarmupS: 10, MeasuredS: 50, Transactions: txns})
	}
	union = filepath.Join(dir, "union.json")
	if err := results.Write(union, one); err != nil {
		t.Fatal(err)
	}
	return shards, union
}

func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	shards, union := writeShardFiles(t, dir, 3)
	out := filepath.Join(dir, "run.json")
	// Shell globs come in name order; merge must not depend on it.
	args := append([]string{"merge", "-o", out}, shards[2], shards[0], shards[1])
	code, stdout, stderr := runMain(args...)
	if code != 0 || !strings.Contains(stdout, "merged 3 shard files (2 steps) into "+out) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	merged, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Shard != nil || len(merged.Shards) != 3 || merged.Shards[1].File != "shard-1.json" {
		t.Fatalf("shard %v, shards %+v", merged.Shard, merged.Shards)
	}
	for i, st := range merged.Steps {
		for _, name := range mergeTxnNames {
			var sum int64
			for _, p := range shards {
				r, err := results.Read(p)
				if err != nil {
					t.Fatal(err)
				}
				sum += r.Steps[i].Transactions[name].Count
			}
			if got := st.Transactions[name].Count; got != sum {
				t.Errorf("step %d %s: count %d, want the shards' sum %d", i+1, name, got, sum)
			}
		}
	}

	code, stdout, stderr = runMain("report", out)
	if code != 0 || !strings.Contains(stdout, "merged from 3 shards") {
		t.Errorf("report: exit %d\n%s%s", code, stdout, stderr)
	}
	// The merged percentiles are those of one driver that saw every transaction:
	// a zero-tolerance gate on them trips nowhere.
	code, stdout, stderr = runMain("compare", union, out, "--fail-if", "p95>+0%", "--fail-if", "p99<-0%", "--fail-if", "trade-order.p90>+0%")
	if code != 0 || !strings.Contains(stdout, "none tripped") || strings.Contains(stdout, "WARNING") {
		t.Errorf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestMergeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	shards, _ := writeShardFiles(t, dir, 2)
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format": 1, "steps": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other-seed.json")
	r, err := results.Read(shards[1])
	if err != nil {
		t.Fatal(err)
	}
	r.Seed = 4
	if err := results.Write(other, r); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run.json")
	for _, tc := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"merge", shards[0], shards[1]}, 2, "--out"},
		{[]string{"merge", "-o", out}, 2, "requires at least 1 arg"},
		{[]string{"merge", "-o", shards[0], shards[0], shards[1]}, 2, "is also an input; choose another output file"},
		{[]string{"merge", "-o", out, shards[0], filepath.Join(dir, "missing.json")}, 1, "missing.json: no such file"},
		{[]string{"merge", "-o", out, shards[0], corrupt}, 1, "corrupt.json:1:"},
		{[]string{"merge", "-o", out, shards[0], other}, 2, "shard-0.json and other-seed.json are not shards of one run: seed differs (3 vs 4)"},
		{[]string{"merge", "-o", out, shards[0]}, 2, "shard 1 of 2 is missing"},
		{[]string{"merge", "-o", out, shards[0], shards[1], shards[1]}, 2, "shard 1 of 2 is given twice"},
	} {
		var name []string
		for _, a := range tc.args[1:] {
			name = append(name, filepath.Base(a))
		}
		t.Run(strings.Join(name, " "), func(t *testing.T) {
			code, stdout, stderr := runMain(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			msg := strings.TrimSpace(stderr)
			if strings.Count(msg, "\n") > 0 || !strings.HasPrefix(msg, "brokerbench: ") || !strings.Contains(msg, tc.say) {
				t.Errorf("stderr %q: want one line containing %q", msg, tc.say)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused merge wrote %s", out)
			}
		})
	}
}
