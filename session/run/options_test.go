package run

import (
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/txn"
)

// defaultRunOptions are a run's options as `brokerbench run` gives them with no
// flags (cmd/brokerbench's bindRunFlags holds the defaults): what a test of the
// session starts from.
func defaultRunOptions() Options {
	return Options{
		Users: "50:300:50", Step: 5 * time.Minute, Warmup: time.Minute, IOInterval: iostat.DefaultInterval,
		LimitOpts:  LimitOptions{Resolution: driver.DefaultSearchResolution * 100, Growth: driver.DefaultSearchGrowth, MaxSteps: driver.DefaultSearchMaxProbes},
		RepeatOpts: RepeatOptions{Repeat: 1}, Settle: SettleAuto, LostGrace: driver.DefaultLostGrace, Frames: string(txn.ClientFrames),
	}
}
