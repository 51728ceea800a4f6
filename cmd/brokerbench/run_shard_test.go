package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/results"
)

// TestShardedRun is issue 14's local end-to-end run: three `run --shard I/3`
// commands at once against one PostgreSQL database with a --start-at a few seconds
// ahead. Each file carries its shard and clock offset; the shards' steps start at the
// same instants and their users add up to the plan (a step of 2 users leaves shard 2
// idle, recorded); the database is consistent after.
func TestShardedRun(t *testing.T) {
	t.Parallel()
	shardedRun(t, testdb.Loaded(t))
}

// shardedRun is TestShardedRun on the loaded database dsn (MariaDB's in
// TestFindMaxAndShardsOnMariaDB).
func shardedRun(t *testing.T, dsn string) {
	dir := t.TempDir()
	plan := []int{2, 7}
	const n = 3
	// Ahead enough for every shard to open its pools on a busy machine (three MariaDB
	// shards beside the whole suite took over 10 s); a shard that is late still lines
	// up (its first warm-up is shorter, or its first window cut).
	startAt := time.Now().Add(20 * time.Second).UTC().Truncate(time.Second)
	files := make([]string, n)
	outs := make([]string, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		files[i] = filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errOut string
			// Paced: each shard takes its share of the 60 starts a second, plenty for
			// every busy shard to count transactions, where full speed would have
			// the three shards burn both cores for every second of their steps.
			codes[i], out, errOut = runMain("run", "--db", dsn, "--users", "2,7", "--step", "4s", "--warmup", "1s", "--rate", "60",
				"--shard", fmt.Sprintf("%d/%d", i, n), "--start-at", startAt.Format(time.RFC3339),
				"--io-device", "none", "--no-check", "--out", files[i])
			outs[i] = out + errOut
		}()
	}
	wg.Wait()
	runs := make([]*results.Run, n)
	for i := range n {
		if codes[i] != 0 {
			t.Fatalf("shard %d: exit %d\n%s", i, codes[i], outs[i])
		}
		r, err := results.Read(files[i])
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = r
		if r.Shard == nil || r.Shard.Index != i || r.Shard.Count != n {
			t.Fatalf("shard %d: shard field %+v", i, r.Shard)
		}
		// Same host as the server: the offset is the round trip's asymmetry.
		if math.Abs(r.Shard.ClockOffsetMS) > 250 {
			t.Errorf("shard %d: clock offset %.3f ms on the server's own host", i, r.Shard.ClockOffsetMS)
		}
		if r.StartAt == nil || !r.StartAt.Equal(startAt) || r.Options["shard"] != fmt.Sprintf("%d/%d", i, n) ||
			r.Options["start-at"] != startAt.Format(time.RFC3339) {
			t.Errorf("shard %d: start_at %v, options shard %v start-at %v", i, r.StartAt, r.Options["shard"], r.Options["start-at"])
		}
		if len(r.Steps) != len(plan) || r.Interrupted {
			t.Fatalf("shard %d: %d steps, interrupted %v\n%s", i, len(r.Steps), r.Interrupted, outs[i])
		}
		if !strings.Contains(outs[i], "clock offset against the database server") {
			t.Errorf("shard %d does not say its clock offset:\n%s", i, outs[i])
		}
	}
	for j, users := range plan {
		sum := 0
		for i, r := range runs {
			st := r.Steps[j]
			sum += st.Users
			// Each shard times its steps from --start-at on its own clock; here
			// every shard's clock is the same one.
			if want := startAt.Add(time.Duration(j) * 4 * time.Second); !st.StartedAt.Equal(want) {
				t.Errorf("shard %d step %d started at %s, want %s", i, j+1, st.StartedAt, want)
			}
			// A shard's share of 60 starts a second is 20: a window of 2 s or more
			// holds about 40, so none at all is a shard that did not run. A shard
			// that opened its pools past the window's start measured less of it.
			if st.Users > 0 && st.TPS <= 0 && st.MeasuredS >= 2 {
				t.Errorf("shard %d step %d: %d users, no transactions in %.1f s measured", i, j+1, st.Users, st.MeasuredS)
			}
			if st.Users == 0 && st.Transactions["Trade-Order"].Count != 0 {
				t.Errorf("shard %d step %d: idle, yet Trade-Orders", i, j+1)
			}
		}
		if sum != users {
			t.Errorf("step %d: the shards' users add up to %d, want %d", j+1, sum, users)
		}
	}
	// Data-Maintenance is shard 0's alone.
	for i, r := range runs[1:] {
		for j, st := range r.Steps {
			if st.Transactions["Data-Maintenance"].Count != 0 {
				t.Errorf("shard %d step %d ran Data-Maintenance", i+1, j+1)
			}
		}
	}
	if code, out, errOut := runMain("check", "--db", dsn); code != 0 {
		t.Fatalf("check after the sharded run: exit %d\n%s\n%s", code, out, errOut)
	}
	checkMerged(t, dir, files, runs, plan)
}

// checkMerged merges the shards' files with the merge command: every step's users
// are the plan's, its counts the sum of the shards', and its percentiles those of
// the union of the shards' histograms (never averaged percentiles).
func checkMerged(t *testing.T, dir string, files []string, runs []*results.Run, plan []int) {
	t.Helper()
	merged := filepath.Join(dir, "run.json")
	if code, out, errOut := runMain(append(append([]string{"merge"}, files...), "-o", merged)...); code != 0 {
		t.Fatalf("merge: exit %d\n%s\n%s", code, out, errOut)
	}
	m, err := results.Read(merged)
	if err != nil {
		t.Fatal(err)
	}
	if m.Shard != nil || len(m.Shards) != len(runs) || len(m.Steps) != len(plan) {
		t.Fatalf("merged: shard %+v, %d shards, %d steps", m.Shard, len(m.Shards), len(m.Steps))
	}
	for j, st := range m.Steps {
		if st.Users != plan[j] {
			t.Errorf("merged step %d: %d users, want %d", j+1, st.Users, plan[j])
		}
		for name, got := range st.Transactions {
			var count int64
			var hists []*hdrhistogram.Histogram
			for _, r := range runs {
				tx := r.Steps[j].Transactions[name]
				count += tx.Count
				if tx.Response == "" {
					continue
				}
				h, err := results.DecodeHistogram(tx.Response)
				if err != nil {
					t.Fatal(err)
				}
				hists = append(hists, h)
			}
			union, _ := results.MergeHistograms(hists...)
			want := results.Summarize(union, nil, 0, 0, 0)
			if got.Count != count || got.P50MS != want.P50MS || got.P90MS != want.P90MS || got.P95MS != want.P95MS ||
				got.P99MS != want.P99MS || got.MaxMS != want.MaxMS {
				t.Errorf("merged step %d %s: count %d p50/90/95/99/max %g/%g/%g/%g/%g; shards' sum %d, union's %g/%g/%g/%g/%g",
					j+1, name, got.Count, got.P50MS, got.P90MS, got.P95MS, got.P99MS, got.MaxMS,
					count, want.P50MS, want.P90MS, want.P95MS, want.P99MS, want.MaxMS)
			}
		}
	}
	if code, out, errOut := runMain("report", merged); code != 0 {
		t.Errorf("report of the merged file: exit %d\n%s\n%s", code, out, errOut)
	}
}

// An interrupt while a shard waits for --start-at keeps the "nothing lost" rule: the
// file is written, interrupted, with no step, and the exit is 130.
func TestStartAtInterrupted(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	p := filepath.Join(t.TempDir(), "waiting.json")
	at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	c := startChild(t, "run", "--db", dsn, "--users", "2", "--step", "4s", "--warmup", "1s", "--shard", "1/2",
		"--start-at", at, "--io-device", "none", "--out", p)
	c.waitLine(t, "waiting for --start-at")
	c.signal(t, syscall.SIGINT)
	if code := c.wait(t); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, c.output())
	}
	r, err := results.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || len(r.Steps) != 0 || r.Shard == nil || r.Shard.Index != 1 || r.StartAt == nil {
		t.Errorf("interrupted %v, %d steps, shard %+v, start_at %v", r.Interrupted, len(r.Steps), r.Shard, r.StartAt)
	}
}
