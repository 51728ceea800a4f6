package driver

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

type fakePool struct{ s PoolStat }

func (p *fakePool) PoolStat() PoolStat { return p.s }

// TestSelfCheckWindow: the self-check's figures from two marks, and the bottleneck
// rules (driver CPU near the cores it may use, the pacer missing most starts).
func TestSelfCheckWindow(t *testing.T) {
	pool := &fakePool{}
	s := newSelfCheck(pool)
	defer s.close()
	t0 := time.Unix(100, 0)
	cores := time.Duration(runtime.GOMAXPROCS(0))
	a := checkMark{at: t0, cpu: time.Second, pool: PoolStat{EmptyAcquires: 10, AcquireWait: time.Second}}
	for _, tc := range []struct {
		name        string
		cpu         time.Duration // used over the 10 s window
		missed, due int64
		bottleneck  string
		wantCPU     float64
	}{
		{"idle driver", 2 * time.Second, 0, 0, "", 20},
		{"driver CPU bound", 10 * time.Second * cores * 95 / 100, 0, 0, fmt.Sprintf("driver CPU %d %% of %d cores", 95*cores, cores), float64(cores) * 95},
		{"pacer missed most starts", time.Second, 600, 1000, "the rate pacer missed most starts (too few users for --rate)", 10},
		{"pacer missed a few", time.Second, 10, 1000, "", 10},
	} {
		b := checkMark{at: t0.Add(10 * time.Second), cpu: a.cpu + tc.cpu,
			pool: PoolStat{EmptyAcquires: 14, AcquireWait: 3 * time.Second}}
		c := s.window(a, b, tc.missed, tc.due)
		if c.CPUPercent != tc.wantCPU {
			t.Errorf("%s: CPU %.2f %%, want %.2f", tc.name, c.CPUPercent, tc.wantCPU)
		}
		if c.PoolWaits != 4 || c.PoolWaitMS != 500 {
			t.Errorf("%s: pool waits %d avg %.1f ms, want 4 of 500 ms", tc.name, c.PoolWaits, c.PoolWaitMS)
		}
		// The scheduler probe runs for real; on a loaded test machine it may flag.
		if strings.HasPrefix(c.BottleneckOn, "scheduler lag") {
			continue
		}
		if c.BottleneckOn != tc.bottleneck || c.Bottleneck != (tc.bottleneck != "") {
			t.Errorf("%s: bottleneck %v %q, want %q", tc.name, c.Bottleneck, c.BottleneckOn, tc.bottleneck)
		}
	}
}
