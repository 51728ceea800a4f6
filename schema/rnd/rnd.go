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

// Skewed is the reference's NURand-like helper (tpce.md §5.2): a uniform value in
// [p, q] OR'ed with a uniform value in [0, a] shifted left by s bits, reduced into the
// range.
func (r *Rand) Skewed(p, q, a int64, s uint) int64 {
	if q <= p {
		return p
	}
	v := (r.Between(p, q) | (r.Between(0, a) << s)) % (q - p + 1)
	return v + p
}

// Customer picks a customer id with the reference's tier skew (tpce.md §5.2): a weight
// w uniform in (0, 2000]: w <= 200 picks tier 1, <= 1400 tier 2, else tier 3, so tiers
// get 10/60/30 % of the picks; inside a tier the rank follows a square-root ramp of w
// and the load unit is uniform.
func (r *Rand) Customer(sc schema.Scale) int64 {
	lu := r.Int64N(sc.LoadUnits())
	return CustomerInLU(lu, r.Float64())
}

// CustomerInLU is the tier-skewed pick inside load unit lu for a uniform u in [0, 1):
// the loader's trades use it with a hash of the trade ordinal, so a trade's customer is
// a pure function of (seed, ordinal) without a generator per trade.
func CustomerInLU(lu int64, u float64) int64 {
	w := u * 2000
	var tier int
	var frac float64
	switch {
	case w <= 200:
		tier, frac = 1, w/200
	case w <= 1400:
		tier, frac = 2, (w-200)/1200
	default:
		tier, frac = 3, (w-1400)/600
	}
	size := [...]int64{200, 600, 200}[tier-1]
	rank := int64(math.Sqrt(frac) * float64(size))
	if rank >= size {
		rank = size - 1
	}
	return schema.CustomerFromTier(lu, tier, rank)
}

// Account picks one of the customer's accounts uniformly.
func (r *Rand) Account(cID int64) int64 {
	return schema.AccountID(cID, r.IntN(schema.AccountCount(cID)))
}
