package run

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
)

// skewedClock is the wall clock off by a fixed amount: a shard on a machine whose
// clock is wrong.
type skewedClock struct {
	driver.RealClock
	by time.Duration
}

func (c skewedClock) Now() time.Time { return time.Now().Add(c.by) }

// A shard whose clock is further off the server's than the warm-up refuses to start,
// with one line naming the offset and the warm-up, before its result file is begun.
func TestShardRefusesASkewedClock(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	out := filepath.Join(t.TempDir(), "skewed.json")
	var stdout, stderr bytes.Buffer
	g := &session.Globals{DB: dsn, Console: session.Console{Stdout: &stdout, Stderr: &stderr, Quiet: true}}
	o := defaultRunOptions()
	o.Users, o.Step, o.Warmup, o.Shard, o.Out, o.IODevices = "2", 4*time.Second, time.Second, "1/2", out, []string{"none"}
	s, err := newRunSession(g, o, newLiveWriter(g))
	if err != nil {
		t.Fatal(err)
	}
	s.clock = skewedClock{by: -5 * time.Second}
	tgt, err := target.Open(context.Background(), g, g.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	_, err = s.run(context.Background(), tgt)
	if err == nil || !strings.Contains(err.Error(), "5s behind the database server's") || !strings.Contains(err.Error(), "1s warm-up") {
		t.Fatalf("a clock 5 s behind with a 1 s warm-up: %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("the refusal is more than one line: %q", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("the refused shard began its result file (%v)", statErr)
	}
}

// --shard 0/1 runs as an unsharded run but its file still says it is shard 0 of 1
// (a one-shard Kubernetes Job's file merges like any other); no --shard, no shard.
func TestShardPlanRecordsGivenShard(t *testing.T) {
	now := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		shard, startAt string
		want           *results.Shard
		wantStart      bool
	}{
		{"", "", nil, false},
		{"0/1", "", &results.Shard{Index: 0, Count: 1}, false},
		{"2/5", "2026-12-01T04:00:03Z", &results.Shard{Index: 2, Count: 5}, true},
		{"", "2026-12-01T03:59:57Z", nil, true}, // 3 s late: tolerated
	} {
		o := defaultRunOptions()
		o.Shard, o.StartAt = tc.shard, tc.startAt
		sp, err := o.shardPlan(now)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if sp.aligned() != (tc.want != nil || tc.wantStart) {
			t.Errorf("%+v: aligned %v", tc, sp.aligned())
		}
		s := &runSession{shard: sp}
		r := &results.Run{Options: map[string]any{}}
		s.recordShard(r)
		if (r.Shard == nil) != (tc.want == nil) || (r.Shard != nil && *r.Shard != *tc.want) || (r.StartAt != nil) != tc.wantStart {
			t.Errorf("%+v: shard %+v, start_at %v", tc, r.Shard, r.StartAt)
		}
	}
}
