// Package rnd holds the seedable random helpers the loader and the transactions share:
// per-batch and per-user generators, the non-uniform customer selector and the skewed
// integer helper of the reference. Pure: nothing reads the clock.
package rnd

import (
	"math"
	"math/rand/v2"

	"github.com/brokerbench/brokerbench/schema"
)

// Rand is a deterministic generator.
type Rand struct{ *rand.Rand }

// New returns a generator that is a pure function of its stream ids (seed, table,
// batch, ...): any worker can rebuild any batch's generator.
func New(seed uint64, stream ...uint64) *Rand {
	s := schema.Mix(seed)
	for _, x := range stream {
		s = schema.Mix2(s, x)
	}
	return &Rand{rand.New(rand.NewPCG(s, schema.Mix(s^0x5851f42d4c957f2d)))}
}

// Between returns a uniform integer in [lo, hi].
func (r *Rand) Between(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + r.Int64N(hi-lo+1)
}

// Chance returns true with probability pct percent.
func (r *Rand) Chance(pct float64) bool { return r.Float64()*100 < pct }

// Skewed is the reference's NURand-like helper (docs/workload.md §7.2): a uniform value in
// [p, q] OR'ed with a uniform value in [0, a] shifted left by s bits, reduced into the
// range.
func (r *Rand) Skewed(p, q, a int64, s uint) int64 {
	if q <= p {
		return p
	}
	v := (r.Between(p, q) | (r.Between(0, a) << s)) % (q - p + 1)
	return v + p
}

// Customer picks a customer id with the reference's tier skew (docs/workload.md §7.1):
// a uniform load unit, then CustomerInLU.
func (r *Rand) Customer(sc schema.Scale) int64 {
	lu := r.Int64N(sc.LoadUnits())
	return CustomerInLU(lu, r.Float64())
}

// CustomerInLU is the tier-skewed pick inside load unit lu for a uniform u in [0, 1)
// (docs/workload.md §7.1). A weight w uniform in (0, 2000] picks tier 1 up to 200, tier
// 2 up to 1,400 and tier 3 above, so the tiers (20/60/20 % of customers) get 10/60/30 %
// of the picks. Within the tier the position follows EGen's offset square-root ramp of
// w: the offsets (151, 501, 149) keep the density from starting at zero, so it rises
// linearly from 0.3x the mean for the coldest customer to 1.7x for the hottest and is
// continuous across the tier boundaries. The loader's initial trades use it too (with a
// hash of the trade ordinal for u), as EGen's trade generator uses its selector.
func CustomerInLU(lu int64, u float64) int64 {
	w := (1 - u) * 2000 // (0, 2000]
	var pos float64     // position 0..999 over the tiers, before the ceiling
	var lo, hi int64
	switch {
	case w <= 200:
		pos, lo, hi = math.Sqrt(22500+500*w)-151, 0, 199
	case w <= 1400:
		pos, lo, hi = math.Sqrt(290000+1000*w)-501, 200, 799
	default:
		pos, lo, hi = 149+math.Sqrt(500*w-277500), 800, 999
	}
	p := min(max(int64(math.Ceil(pos)), lo), hi)
	switch {
	case p < 200:
		return schema.CustomerFromTier(lu, 1, p)
	case p < 800:
		return schema.CustomerFromTier(lu, 2, p-200)
	}
	return schema.CustomerFromTier(lu, 3, p-800)
}

// Account picks one of the customer's accounts uniformly.
func (r *Rand) Account(cID int64) int64 {
	return schema.AccountID(cID, r.IntN(schema.AccountCount(cID)))
}

// CustomerIn picks a customer id with the reference's tier skew among the customers
// whose 0-based ordinals lie in [from, to) (a shard's slice of the customer space,
// EGen's customer partitioning): a uniform load unit among those the range touches,
// then CustomerInLU, drawn again when the pick falls outside the range. A range of
// whole load units never draws again, and the whole space draws exactly what
// Customer draws. A range cut inside a load unit (more shards than load units) keeps
// the tier skew among its own customers; each pick lands in it with probability at
// least 0.3 × its share of the load units it touches, so the loop ends quickly.
func (r *Rand) CustomerIn(from, to int64) int64 {
	luFrom, luTo := from/schema.LoadUnit, (to-1)/schema.LoadUnit+1
	for {
		c := CustomerInLU(luFrom+r.Int64N(luTo-luFrom), r.Float64())
		if o := schema.CustomerOrdinal(c) - 1; o >= from && o < to {
			return c
		}
	}
}
