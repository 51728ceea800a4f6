package driver

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestSettleWindowsAreNotSteps: the settling windows run before the first step at its
// users, reach OnSettle and the source but never OnStep or the run's steps, and say
// "settling" on the live line; a steady database ends them after the rule's span.
func TestSettleWindowsAreNotSteps(t *testing.T) { synctest.Test(t, testSettleWindowsAreNotSteps) }

func testSettleWindowsAreNotSteps(t *testing.T) {
	cfg := fakeConfig(newFakeMarket(), []int{2, 4}, 800*time.Millisecond, 200*time.Millisecond)
	src := NewSettleSteps(cfg.Plan.Source(), time.Second, time.Minute)
	cfg.Steps = src
	var settled, stepped []*results.Step
	cfg.OnSettle = func(st *results.Step) { settled = append(settled, st) }
	cfg.OnStep = func(st *results.Step) {
		if !src.Settled() {
			t.Error("a step ran before the settling ended")
		}
		stepped = append(stepped, st)
	}
	var settling, steps int
	cfg.OnTick = func(l Live) {
		switch {
		case l.Settling && strings.HasPrefix(l.String(), "settling ") && !l.Measuring:
			settling++
		case !l.Settling && strings.HasPrefix(l.String(), "step "):
			steps++
		default:
			t.Errorf("live line %q (settling %v, measuring %v)", l.String(), l.Settling, l.Measuring)
		}
	}
	got := mustRun(t, cfg)
	if len(got) != 2 || got[0].Users != 2 || got[1].Users != 4 || len(stepped) != 2 {
		t.Fatalf("steps %+v, OnStep saw %d", got, len(stepped))
	}
	if len(settled) < figures.SettleSpan || len(settled) != len(src.Record.Windows) {
		t.Fatalf("OnSettle saw %d windows, the record holds %d", len(settled), len(src.Record.Windows))
	}
	for i, st := range settled {
		if st.Users != 2 || st.MeasuredS <= 0 {
			t.Errorf("settling window %d: %d users, %.2f s measured; want the first step's 2 users, measured whole", i+1, st.Users, st.MeasuredS)
		}
	}
	if settling == 0 || steps == 0 {
		t.Errorf("live lines: %d settling, %d step", settling, steps)
	}
}

// TestSettleBudget: a budget under the rule's span ends the settling unsteady, and
// the steps still run.
func TestSettleBudget(t *testing.T) { synctest.Test(t, testSettleBudget) }

func testSettleBudget(t *testing.T) {
	cfg := fakeConfig(newFakeMarket(), []int{2}, 800*time.Millisecond, 200*time.Millisecond)
	src := NewSettleSteps(cfg.Plan.Source(), time.Second, 2*time.Second)
	cfg.Steps = src
	var judged int
	src.OnWindow = func(*results.Settle) { judged++ }
	got := mustRun(t, cfg)
	if len(got) != 1 {
		t.Fatalf("steps: %+v", got)
	}
	if r := src.Record; len(r.Windows) != 2 || r.Steady || judged != 2 || !strings.Contains(r.Why, "2 of the 6 windows") {
		t.Fatalf("record %+v after %d judgements; want 2 windows, not steady, saying the rule needs 6", r, judged)
	}
}
