package iostat

import "time"

// fixedClock returns a clock that advances one second per call from a fixed start.
func fixedClock() func() time.Time {
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	n := 0
	return func() time.Time {
		n++
		return t0.Add(time.Duration(n) * time.Second)
	}
}
