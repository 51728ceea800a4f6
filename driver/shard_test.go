package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// Every user of every step and every customer belongs to exactly one shard, for 1 to
// 7 shards, including fewer users and fewer load units than shards; shards get whole
// load units when there are enough of them, and sizes that differ by at most one.
func TestShardSplitCoversEverythingOnce(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for _, users := range []int{1, 2, 3, 5, 6, 7, 10, 50, 99, 300} {
			sum, lo, hi := 0, users, 0
			for i := range n {
				u := Shard{Index: i, Count: n}.Users(users)
				sum += u
				lo, hi = min(lo, u), max(hi, u)
			}
			if sum != users || hi-lo > 1 {
				t.Errorf("%d shards of %d users: sum %d, shares from %d to %d", n, users, sum, lo, hi)
			}
		}
		for _, customers := range []int64{1000, 2000, 3000, 5000, 7000, 8000, 20000} {
			sc := schema.Scale{Customers: customers}
			lus := sc.LoadUnits()
			owner := make([]int, customers)
			lo, hi := customers, int64(0)
			for i := range n {
				sh := Shard{Index: i, Count: n}
				r := sh.Customers(sc)
				if n == 1 {
					if r.Count() != 0 || sh.CustomerCount(sc) != customers {
						t.Errorf("1 shard: range %+v, count %d; want the whole space", r, sh.CustomerCount(sc))
					}
					r.From, r.To = 0, customers
				}
				if sh.CustomerCount(sc) != r.Count() && n > 1 {
					t.Errorf("%d shards, shard %d: CustomerCount %d, range %+v", n, i, sh.CustomerCount(sc), r)
				}
				if lus >= int64(n) && (r.From%schema.LoadUnit != 0 || r.To%schema.LoadUnit != 0) {
					t.Errorf("%d shards of %d load units: shard %d has %+v, not whole load units", n, lus, i, r)
				}
				lo, hi = min(lo, r.Count()), max(hi, r.Count())
				for c := r.From; c < r.To; c++ {
					owner[c]++
				}
			}
			// Sizes differ by at most a load unit (whole load units) or a customer.
			if unit := map[bool]int64{true: schema.LoadUnit, false: 1}[lus >= int64(n)]; hi-lo > unit {
				t.Errorf("%d shards of %d customers: slices of %d to %d customers", n, customers, lo, hi)
			}
			for c, k := range owner {
				if k != 1 {
					t.Fatalf("%d shards of %d customers: customer ordinal %d is in %d shards", n, customers, c, k)
				}
			}
		}
	}
}

// The skewed picker stays in the shard's slice, reaches every customer of a small
// slice, and keeps the tier skew: tier-1 customers are picked about half as often as
// their share (10 % of picks for 20 % of customers).
func TestCustomerInStaysInItsSlice(t *testing.T) {
	sc := schema.Scale{Customers: 3000}
	for n := 1; n <= 7; n++ {
		for i := range n {
			sh := Shard{Index: i, Count: n}
			rg := sh.Customers(sc)
			if rg.Count() == 0 {
				rg.From, rg.To = 0, sc.Customers
			}
			r := rnd.New(1, uint64(n), uint64(i))
			seen := map[int64]int{}
			tier1 := 0
			// Enough draws that the coldest customer (0.3x the mean) is all but sure
			// to come up.
			draws := 60 * int(rg.Count())
			for range draws {
				c := r.CustomerIn(rg.From, rg.To)
				o := schema.CustomerOrdinal(c) - 1
				if o < rg.From || o >= rg.To {
					t.Fatalf("%d shards, shard %d: picked ordinal %d outside %+v", n, i, o, rg)
				}
				seen[o]++
				if schema.Tier(c) == 1 {
					tier1++
				}
			}
			if int64(len(seen)) != rg.Count() {
				t.Errorf("%d shards, shard %d: %d of %d customers picked", n, i, len(seen), rg.Count())
			}
			if share := float64(tier1) / float64(draws); share < 0.07 || share > 0.13 {
				t.Errorf("%d shards, shard %d: tier 1 has %.3f of the picks, want about 0.10", n, i, share)
			}
		}
	}
	// The whole space draws exactly what the unsharded picker draws.
	a, b := rnd.New(7, 1), rnd.New(7, 1)
	for range 1000 {
		if x, y := a.Customer(sc), b.CustomerIn(0, sc.Customers); x != y {
			t.Fatalf("CustomerIn over the whole space drew %d, Customer %d", y, x)
		}
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"0/1": {0, 1}, "2/3": {2, 3}, " 6 / 7 ": {6, 7}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "3/3", "-1/2", "0/0", "a/2", "1/b", "1/2/3", "1/-2"} {
		if _, err := ParseShard(in); err == nil || !strings.Contains(err.Error(), "--shard") {
			t.Errorf("ParseShard(%q): %v, want a --shard error", in, err)
		}
	}
}

// Shard 0 keeps the run's seed (an unsharded run's streams); the others get seeds of
// their own, a function of the index alone.
func TestShardSeeds(t *testing.T) {
	seen := map[uint64]int{}
	for i := range 7 {
		s := Shard{Index: i, Count: 7}.Seed(42)
		if s != (Shard{Index: i, Count: 3}).Seed(42) {
			t.Errorf("shard %d's seed depends on the shard count", i)
		}
		if j, dup := seen[s]; dup {
			t.Errorf("shards %d and %d share seed %d", j, i, s)
		}
		seen[s] = i
	}
	if (Shard{}).Seed(42) != 42 || (Shard{0, 3}).Seed(42) != 42 {
		t.Error("shard 0 does not keep the run's seed")
	}
}

// skewedClock is the wall clock off by a fixed amount: a shard on a machine whose
// clock is wrong.
type skewedClock struct {
	RealClock
	by time.Duration
}

func (c skewedClock) Now() time.Time { return time.Now().Add(c.by) }

// The offset against the real test PostgreSQL (same machine, same clock) is within
// the round trip; a clock skewed by 90 s measures about 90 s and is refused for a 30 s
// warm-up, with a line naming both.
func TestClockOffsetAgainstPostgreSQL(t *testing.T) {
	ctx := context.Background()
	db := testpg.OpenDB(t, testpg.NewDB(t), database.Options{MaxConns: 1})
	server := func(ctx context.Context) (time.Time, error) { return database.ServerTime(ctx, db) }

	o, err := MeasureClockOffset(ctx, RealClock{}, ClockRounds, server)
	if err != nil {
		t.Fatal(err)
	}
	// Same host: the only error is the round trip's asymmetry, plus a margin for a
	// busy machine's scheduling.
	if abs(o.Offset) > o.RoundTrip/2+50*time.Millisecond || o.RoundTrip <= 0 {
		t.Errorf("same-host offset %s (round trip %s)", o.Offset, o.RoundTrip)
	}
	if err := CheckClockOffset(o, 30*time.Second); err != nil {
		t.Errorf("same-host offset refused: %v", err)
	}

	skew := 90 * time.Second
	o, err = MeasureClockOffset(ctx, skewedClock{by: skew}, ClockRounds, server)
	if err != nil {
		t.Fatal(err)
	}
	if d := abs(o.Offset - skew); d > o.RoundTrip/2+50*time.Millisecond {
		t.Errorf("a clock %s ahead measured %s (round trip %s)", skew, o.Offset, o.RoundTrip)
	}
	err = CheckClockOffset(o, 30*time.Second)
	if err == nil || !strings.Contains(err.Error(), "1m30s ahead of") || !strings.Contains(err.Error(), "30s warm-up") {
		t.Errorf("a clock 90 s off with a 30 s warm-up: %v, want a refusal naming both", err)
	}
	if err := CheckClockOffset(ClockOffset{Offset: -skew}, 30*time.Second); err == nil || !strings.Contains(err.Error(), "1m30s behind") {
		t.Errorf("a clock 90 s behind: %v", err)
	}
}

// The sample with the shortest round trip wins, and the offset is taken at its
// midpoint.
func TestMeasureClockOffsetKeepsTheShortestRoundTrip(t *testing.T) {
	base := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	fc := &steppedClock{t: base}
	// Round trips of 40, 10, 30 ms; the server reads 5 ms after the local midpoint
	// of the 10 ms one minus 2 s (the local clock is 2 s ahead).
	rtts := []time.Duration{40 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond}
	k := 0
	server := func(context.Context) (time.Time, error) {
		rtt := rtts[k]
		k++
		at := fc.t.Add(rtt / 2).Add(-2 * time.Second)
		fc.t = fc.t.Add(rtt)
		return at, nil
	}
	o, err := MeasureClockOffset(context.Background(), fc, len(rtts), server)
	if err != nil {
		t.Fatal(err)
	}
	if o.RoundTrip != 10*time.Millisecond || o.Offset != 2*time.Second {
		t.Errorf("got %+v, want a 10ms round trip and a 2s offset", o)
	}
	if _, err := MeasureClockOffset(context.Background(), fc, 0, server); err == nil {
		t.Error("no round trips: no error")
	}
}

// steppedClock's time moves only when the test moves it.
type steppedClock struct {
	RealClock
	t time.Time
}

func (c *steppedClock) Now() time.Time { return c.t }

func abs(d time.Duration) time.Duration { return max(d, -d) }
