package driver

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// ThinkCap is how many times the mean a think time may reach: the exponential
// distribution's tail is truncated there, as the reference truncates its delays.
const ThinkCap = 10

// ThinkTime maps a uniform draw u in [0, 1) to an exponential think time with the
// given mean, truncated at ThinkCap times the mean. A zero mean means no think time.
func ThinkTime(mean time.Duration, u float64) time.Duration {
	if mean <= 0 {
		return 0
	}
	d := -math.Log(1-u) * float64(mean)
	if capped := float64(ThinkCap) * float64(mean); d > capped || math.IsInf(d, 1) {
		d = capped
	}
	return time.Duration(d)
}

// LagHorizon is how far behind its schedule the rate pacer may fall. A start that
// was due longer ago than this is dropped and counted as missed: the rate cannot be
// met (too few users, or the database saturated), and an ever-growing backlog would
// only measure the backlog.
const LagHorizon = 10 * time.Second

// RateSchedule is the --rate pacer: an open-loop schedule of starts, one every
// 1/rate seconds, shared by all users, the market emulator and the timer: --rate is
// the total of all transaction starts, as pgbench's -R is. Users wait for their slot
// (Next); the emulator's and the timer's starts cannot wait (a Trade-Result is owed
// when its order's delay ends, Data-Maintenance keeps its cadence), so they take a
// slot as they start (Charge) and push the users' next slots later. It is a golang.org/x/time/rate token bucket
// whose burst is LagHorizon's worth of starts. The bucket's token count says where
// the schedule stands: with k tokens available the oldest unspent slot fell due
// (k-1)/rate ago, and with k < 1 the next slot is (1-k)/rate ahead. So each start's
// intended time is now + (1-k)/rate, in the past when users fell behind.
//
// That is what makes --rate coordinated-omission safe: when the server stalls, the
// slots that pass keep their intended times, and the transactions that finally take
// them carry the stall in their response times (and in the lag), while their service
// times stay short.
type RateSchedule struct {
	mu    sync.Mutex
	lim   *rate.Limiter
	rate  float64
	start time.Time
	last  time.Time
	spent int64
}

// NewRateSchedule starts a schedule of perSec starts per second at start.
func NewRateSchedule(perSec float64, start time.Time) *RateSchedule {
	burst := max(1, int(math.Ceil(perSec*LagHorizon.Seconds())))
	lim := rate.NewLimiter(rate.Limit(perSec), burst)
	// A new bucket is full; empty it so the first start is due at start, not a
	// horizon earlier.
	lim.ReserveN(start, burst)
	return &RateSchedule{lim: lim, rate: perSec, start: start, last: start}
}

// Rate is the schedule's starts per second.
func (s *RateSchedule) Rate() float64 { return s.rate }

// Next takes the next slot of the schedule at now and returns its intended start,
// which may lie in the past (the caller is late) or the future (the caller waits).
func (s *RateSchedule) Next(now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.last) {
		// Callers race to the lock; the bucket must see time move forward only.
		now = s.last
	}
	s.last = now
	k := s.lim.TokensAt(now)
	s.lim.ReserveN(now, 1)
	s.spent++
	return now.Add(time.Duration((1 - k) / s.rate * float64(time.Second)))
}

// Charge takes a slot for a start at now that does not wait for it (the emulator's
// and the timer's). When none is free the schedule goes into debt: the users' next
// slots move later by 1/rate each, so the total still keeps the rate.
func (s *RateSchedule) Charge(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.last) {
		now = s.last
	}
	s.last = now
	s.lim.ReserveN(now, 1)
	s.spent++
}

// Missed is how many slots fell due by now and were dropped for being more than
// LagHorizon late: the slots earned since start, less those taken, less those still
// waiting in the bucket (negative when slots ahead of now were taken).
func (s *RateSchedule) Missed(now time.Time) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.last) {
		now = s.last
	}
	earned := now.Sub(s.start).Seconds() * s.rate
	m := earned - float64(s.spent) - s.lim.TokensAt(now)
	if m < 0.5 {
		return 0
	}
	return int64(math.Round(m))
}

// Owed is how many slots had fallen due by now and were still waiting for a user:
// the bucket's whole tokens (with k tokens the oldest unspent slot fell due
// (k-1)/rate ago, see RateSchedule).
func (s *RateSchedule) Owed(now time.Time) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.last) {
		now = s.last
	}
	return max(0, int64(math.Floor(s.lim.TokensAt(now))))
}

// Due is how many slots fell due between start and now (for the self-check's
// "the pacer missed most starts").
func (s *RateSchedule) Due(now time.Time) int64 {
	if now.Before(s.start) {
		return 0
	}
	return int64(now.Sub(s.start).Seconds() * s.rate)
}
