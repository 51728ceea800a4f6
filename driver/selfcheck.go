package driver

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
)

// Thresholds of the self-check: past them the driver, not the database, may have
// limited the step.
const (
	bottleneckCPUShare = 0.9                   // of the cores the Go runtime may use
	bottleneckSchedLag = 10 * time.Millisecond // p99 wake-up delay
	// Late timers only blame the driver when the driver itself is busy: on a machine
	// shared with the database they mostly mean the database took the CPUs, which is
	// the database's limit, not ours.
	bottleneckLagCPUShare = 0.5 // of the cores the Go runtime may use
	schedProbeInterval    = 5 * time.Millisecond
	gcPauseMetric         = "/cpu/classes/gc/pause:cpu-seconds"
	bottleneckMissShare   = 0.5 // of the rate schedule's due starts
)

// PoolStat is a connection pool's running totals.
type PoolStat = database.PoolStat

// PoolStatser is the optional pool view of a database; each database's pool
// implements it in its own package (database/postgres, database/sqlserver).
type PoolStatser = database.PoolStatser

// schedProbe measures the Go scheduler's wake-up delay: a goroutine asks to sleep a
// few milliseconds and records how late it wakes. A load generator whose goroutines
// wake late times its transactions late.
type schedProbe struct {
	mu   sync.Mutex
	hist *hdrhistogram.Histogram // µs
	stop chan struct{}
}

func newSchedProbe() *schedProbe {
	p := &schedProbe{hist: hdrhistogram.New(1, 60e6, 2), stop: make(chan struct{})}
	go p.run()
	return p
}

func (p *schedProbe) run() {
	for {
		select {
		case <-p.stop:
			return
		default:
		}
		// Real time on purpose: this measures the runtime, not the injected clock.
		t := time.Now()
		time.Sleep(schedProbeInterval)
		late := time.Since(t) - schedProbeInterval
		p.mu.Lock()
		_ = p.hist.RecordValue(max(1, late.Microseconds()))
		p.mu.Unlock()
	}
}

// p99 returns the 99th percentile since the last reset, and resets when asked.
func (p *schedProbe) p99(reset bool) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := time.Duration(p.hist.ValueAtQuantile(99)) * time.Microsecond
	if reset {
		p.hist.Reset()
	}
	return v
}

func (p *schedProbe) close() { close(p.stop) }

// checkMark is the self-check's counters at one window edge.
type checkMark struct {
	at   time.Time
	cpu  time.Duration
	gc   float64 // GC pause CPU-seconds
	pool PoolStat
}

type selfCheck struct {
	probe *schedProbe
	pool  PoolStatser
	gcBuf []metrics.Sample
}

func newSelfCheck(pool PoolStatser) *selfCheck {
	return &selfCheck{probe: newSchedProbe(), pool: pool, gcBuf: []metrics.Sample{{Name: gcPauseMetric}}}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// mark snapshots the counters; begin resets the scheduler probe's window.
func (s *selfCheck) mark(now time.Time, begin bool) checkMark {
	m := checkMark{at: now, cpu: processCPU()}
	metrics.Read(s.gcBuf)
	if s.gcBuf[0].Value.Kind() == metrics.KindFloat64 {
		m.gc = s.gcBuf[0].Value.Float64()
	}
	if s.pool != nil {
		m.pool = s.pool.PoolStat()
	}
	if begin {
		s.probe.p99(true)
	}
	return m
}

// window turns two marks into the step's self-check; missed and due are the rate
// schedule's dropped and due starts in the window (0 without --rate).
func (s *selfCheck) window(a, b checkMark, missed, due int64) results.DriverCheck {
	wall := b.at.Sub(a.at).Seconds()
	var c results.DriverCheck
	if wall > 0 {
		c.CPUPercent = round2(float64(b.cpu-a.cpu) / float64(time.Second) / wall * 100)
	}
	// The metric is CPU-seconds with the world stopped, summed over GOMAXPROCS.
	c.GCPauseMS = round2((b.gc - a.gc) / float64(runtime.GOMAXPROCS(0)) * 1000)
	lag := s.probe.p99(false)
	c.SchedLagMS = round2(float64(lag) / float64(time.Millisecond))
	if s.pool != nil {
		c.PoolWaits = b.pool.EmptyAcquires - a.pool.EmptyAcquires
		if c.PoolWaits > 0 {
			c.PoolWaitMS = round2(float64(b.pool.AcquireWait-a.pool.AcquireWait) / float64(time.Millisecond) / float64(c.PoolWaits))
		}
	}
	cores := float64(runtime.GOMAXPROCS(0))
	switch {
	case c.CPUPercent >= bottleneckCPUShare*cores*100:
		c.Bottleneck, c.BottleneckOn = true, fmt.Sprintf("driver CPU %.0f %% of %.0f cores", c.CPUPercent, cores)
	case lag > bottleneckSchedLag && c.CPUPercent >= bottleneckLagCPUShare*cores*100:
		c.Bottleneck, c.BottleneckOn = true, fmt.Sprintf("scheduler lag p99 %.0f ms with driver CPU %.0f %% of %.0f cores", c.SchedLagMS, c.CPUPercent, cores)
	case due > 0 && float64(missed) > bottleneckMissShare*float64(due):
		c.Bottleneck, c.BottleneckOn = true, "the rate pacer missed most starts (too few users for --rate)"
	}
	return c
}

func (s *selfCheck) close() { s.probe.close() }

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
