package driver

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ClockRounds is how many round trips MeasureClockOffset makes: the shortest of a
// handful bounds the error well on a quiet network and costs milliseconds.
const ClockRounds = 7

// ClockOffset is a clock's measured offset against the database server's clock.
type ClockOffset struct {
	// Offset is the local clock minus the server's (positive: the local clock is
	// ahead), as results.Shard.ClockOffsetMS records it.
	Offset time.Duration
	// RoundTrip is the round trip of the sample it came from; the offset is known
	// to within half of it.
	RoundTrip time.Duration
}

// MeasureClockOffset reads the server's clock rounds times (serverNow, e.g.
// database.ServerTime) and keeps the sample with the shortest round trip, the one
// least blurred by the network and the server's scheduling (NTP's rule): the offset is
// the local clock at the round trip's midpoint minus the server's reading.
func MeasureClockOffset(ctx context.Context, clock Clock, rounds int, serverNow func(context.Context) (time.Time, error)) (ClockOffset, error) {
	if rounds < 1 {
		return ClockOffset{}, errors.New("clock offset: no round trips")
	}
	best := ClockOffset{RoundTrip: -1}
	for range rounds {
		sent := clock.Now()
		server, err := serverNow(ctx)
		if err != nil {
			return ClockOffset{}, err
		}
		back := clock.Now()
		rtt := back.Sub(sent)
		if best.RoundTrip < 0 || rtt < best.RoundTrip {
			mid := sent.Add(rtt / 2)
			best = ClockOffset{Offset: mid.Sub(server), RoundTrip: rtt}
		}
	}
	return best, nil
}

// CheckClockOffset refuses a clock too far off the server's for steps to line up
// across shards: a shard whose clock is off by more than the warm-up would measure
// part of another shard's warm-up, or miss part of its window.
func CheckClockOffset(o ClockOffset, warmup time.Duration) error {
	if abs := max(o.Offset, -o.Offset); abs > warmup {
		way := "ahead of"
		if o.Offset < 0 {
			way = "behind"
		}
		return fmt.Errorf("this machine's clock is %s %s the database server's, more than the %s warm-up: the shards' steps would not line up; synchronise the clocks (NTP) or lengthen --warmup",
			abs.Round(10*time.Millisecond), way, warmup)
	}
	return nil
}
