package run

import (
	"context"
	"math"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/txn"
)

// startAtGrace is how far in the past --start-at may be: a shard launched a moment
// late still joins its run (its first warm-up is shorter); one launched later would
// run steps that no longer line up with anyone's.
const startAtGrace = 5 * time.Second

// shardPlan is what --shard and --start-at ask of a run (run --shard I/N): the zero
// value is an ordinary run.
type shardPlan struct {
	shard driver.Shard
	// given: --shard was given, 0/1 included (its file says so, for merge); the
	// driver treats 0/1 as an unsharded run.
	given   bool
	startAt time.Time // zero: start as soon as the run is ready
	// offset is the local clock against the database server's, measured in open
	// when sharded or starting at a set time.
	offset *driver.ClockOffset
}

// shardPlan checks --shard and --start-at (usage errors) at now.
func (o Options) shardPlan(now time.Time) (shardPlan, error) {
	var p shardPlan
	if o.Shard != "" {
		sh, err := driver.ParseShard(o.Shard)
		if err != nil {
			return p, session.UsageError{Err: err}
		}
		if o.LimitOpts.FindMax {
			return p, session.Usagef("--find-max cannot run with --shard: each probe's rate is chosen from the whole run's figures, which no shard sees")
		}
		p.shard, p.given = sh, true
	}
	if o.StartAt != "" {
		t, err := time.Parse(time.RFC3339, o.StartAt)
		if err != nil {
			return p, session.Usagef("--start-at %q: want an RFC 3339 time such as 2026-12-01T04:30:00Z", o.StartAt)
		}
		if late := now.Sub(t); late > startAtGrace {
			return p, session.Usagef("--start-at %s is %s in the past (at most %s is tolerated); give a time ahead of every shard's start", o.StartAt, late.Round(time.Second), startAtGrace)
		}
		if o.LimitOpts.FindMax {
			return p, session.Usagef("--start-at lines up the steps of a sharded run; --find-max chooses its steps as it goes: give them separately")
		}
		p.startAt = t
	}
	return p, nil
}

// aligned: the run must measure its clock against the server's.
func (p shardPlan) aligned() bool { return p.given || !p.startAt.IsZero() }

// maxUsers is the shard's highest share of a step of the plan (the plan's highest
// level unsharded): what sizes its pool and its emulator.
func (p shardPlan) maxUsers(plan driver.Plan) int {
	m := 0
	for _, u := range plan.Users {
		m = max(m, p.shard.Users(u))
	}
	return m
}

// measureClock measures this machine's clock against the database server's and
// refuses one too far off to line the steps up.
func (s *runSession) measureClock(ctx context.Context) error {
	if !s.shard.aligned() {
		return nil
	}
	o, err := driver.MeasureClockOffset(ctx, s.clock, driver.ClockRounds, func(ctx context.Context) (time.Time, error) {
		return database.ServerTime(ctx, s.marketDB)
	})
	if err != nil {
		return err
	}
	if err := driver.CheckClockOffset(o, s.plan.Warmup); err != nil {
		return err
	}
	s.shard.offset = &o
	s.lw.logf("run: clock offset against the database server %s (round trip %s)", o.Offset.Round(time.Microsecond), o.RoundTrip.Round(time.Microsecond))
	return nil
}

// recordShard adds the shard and the start time to the result file.
func (s *runSession) recordShard(r *results.Run) {
	if !s.shard.startAt.IsZero() {
		t := s.shard.startAt.UTC()
		r.StartAt = &t
	}
	if s.shard.given {
		r.Shard = &results.Shard{Index: s.shard.shard.Index, Count: s.shard.shard.Count}
		if s.shard.offset != nil {
			r.Shard.ClockOffsetMS = round3(float64(s.shard.offset.Offset) / float64(time.Millisecond))
		}
	} else if s.shard.offset != nil {
		// An unsharded run at a set time: the file has no shard to hold the offset.
		r.Options["clock_offset_ms"] = round3(float64(s.shard.offset.Offset) / float64(time.Millisecond))
	}
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// logShard says what this shard drives.
func (s *runSession) logShard(customers txn.CustomerRange) {
	sh := s.shard.shard
	if !sh.Sharded() {
		return
	}
	if s.shard.startAt.IsZero() {
		s.lw.logf("run: --shard without --start-at: the shards' steps line up only as well as they were started together")
	}
	users := make([]int, len(s.plan.Users))
	for i, u := range s.plan.Users {
		users[i] = sh.Users(u)
	}
	s.lw.logf("run: shard %d/%d: users %v of %v, customers %d to %d, rate %g of %g", sh.Index, sh.Count, users, s.plan.Users,
		customers.From+1, customers.To, s.opts.Rate/float64(sh.Count), s.opts.Rate)
}
