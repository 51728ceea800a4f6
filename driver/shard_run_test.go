package driver

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// Three shards of one run: each holds its share of every step's users (a step of 2
// users leaves shard 2 idle, still recorded), only shard 0 runs Trade-Cleanup and
// Data-Maintenance, and every shard starts its steps at --start-at's instant.
func TestShardedRunFake(t *testing.T) { synctest.Test(t, testShardedRunFake) }

func testShardedRunFake(t *testing.T) {
	plan := []int{2, 7}
	startAt := time.Now().Add(3 * time.Second)
	for i := range 3 {
		m := newFakeMarket()
		cfg := fakeConfig(m, plan, time.Second, 250*time.Millisecond)
		cfg.Shard = Shard{Index: i, Count: 3}
		cfg.StartAt = startAt
		cfg.DataMaintenanceEvery = 200 * time.Millisecond
		var dm int64
		cfg.OnStep = func(st *results.Step) { dm += st.Transactions["Data-Maintenance"].Count }
		steps := mustRun(t, cfg)
		if len(steps) != len(plan) {
			t.Fatalf("shard %d: %d steps, want %d", i, len(steps), len(plan))
		}
		for j, st := range steps {
			if want := cfg.Shard.Users(plan[j]); st.Users != want {
				t.Errorf("shard %d step %d: %d users, want %d", i, j, st.Users, want)
			}
			if at := startAt.Add(time.Duration(j) * time.Second).UTC(); !st.StartedAt.Equal(at) {
				t.Errorf("shard %d step %d started at %s, want %s", i, j, st.StartedAt, at)
			}
			if st.Users == 0 && st.TPS != 0 {
				t.Errorf("shard %d step %d: idle but %.1f tps", i, j, st.TPS)
			}
		}
		if once := i == 0; (m.cleanups.Load() == 1) != once || (dm > 0) != once {
			t.Errorf("shard %d: %d Trade-Cleanups, %d Data-Maintenances; only shard 0 runs them", i, m.cleanups.Load(), dm)
		}
		startAt = startAt.Add(10 * time.Second) // the next shard's run, later in the bubble
	}
}

// An interrupt while waiting for --start-at ends the run with no step and the
// interrupt's error.
func TestStartAtInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := fakeConfig(newFakeMarket(), []int{2}, time.Second, 250*time.Millisecond)
		cfg.StartAt = time.Now().Add(time.Hour)
		d, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Minute, cancel)
		steps, err := d.Run(ctx)
		if len(steps) != 0 || !errors.Is(err, context.Canceled) {
			t.Errorf("interrupted while waiting: %d steps, %v", len(steps), err)
		}
	})
}

// A shard's --rate and nominal tpsE are its share of the run's.
func TestShardSharesRateAndNominal(t *testing.T) {
	cfg := fakeConfig(newFakeMarket(), []int{4}, time.Second, 250*time.Millisecond)
	cfg.Scale.Customers = 3000
	cfg.Rate, cfg.NominalTPSE = 300, 6
	cfg.Shard = Shard{Index: 1, Count: 3}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d.cfg.Rate != 100 || d.cfg.NominalTPSE != 2 {
		t.Errorf("shard 1/3: rate %g, nominal tpsE %g; want 100 and 2", d.cfg.Rate, d.cfg.NominalTPSE)
	}
}
