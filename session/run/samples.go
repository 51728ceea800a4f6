package run

import (
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/record"
)

// wrapSamples keeps every step's per-second figures (results.StepSamples) in its
// result: each tick's per-transaction histograms, then the tick's rates. compare
// makes its intervals from them.
func wrapSamples(cfg *driver.Config) {
	col := record.NewSampleCollector()
	onInterval, onTick, onStep := cfg.OnInterval, cfg.OnTick, cfg.OnStep
	cfg.OnInterval = func(iv record.Interval) {
		col.Interval(iv)
		if onInterval != nil {
			onInterval(iv)
		}
	}
	cfg.OnTick = func(l driver.Live) {
		col.Second(l.Step, l.Measuring, l.TPS, l.TPSE)
		if onTick != nil {
			onTick(l)
		}
	}
	cfg.OnStep = func(st *results.Step) {
		st.Samples = col.Take()
		if onStep != nil {
			onStep(st)
		}
	}
}
