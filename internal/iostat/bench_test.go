package iostat

import (
	"context"
	"testing"
	"time"
)

// BenchmarkDiskstatsSnapshot is the cost of one local read (every Interval and at
// each window edge): one /proc/diskstats read and parse.
func BenchmarkDiskstatsSnapshot(b *testing.B) {
	l, err := newLocator("/proc", "/sys")
	if err != nil {
		b.Skip(err)
	}
	all, err := l.bd.ProcDiskstats()
	if err != nil || len(all) == 0 {
		b.Skip("no /proc/diskstats here")
	}
	src := &diskstats{bd: l.bd, devices: []Device{{Name: all[0].DeviceName, Role: RoleData, InTotals: true}}, now: time.Now}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := src.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWindow is the cost of a step's figures after a long step (an hour of 5 s
// samples in the history).
func BenchmarkWindow(b *testing.B) {
	devs := []Device{{Name: "sdb", Role: RoleData, InTotals: true}, {Name: "sdc", Role: RoleWAL, InTotals: true}}
	seq := make([]map[string]Counters, 722)
	for i := range seq {
		u := uint64(i)
		seq[i] = map[string]Counters{"sdb": dev(100*u, 50*u, 10*u, 5*u, 15*u), "sdc": dev(0, 80*u, 0, 4*u, 4*u)}
	}
	s := newScripted(&scripted{devices: devs, seq: seq}, -1)
	a := s.Mark()
	for range 720 {
		s.take(context.Background())
	}
	z := s.Mark()
	b.ReportAllocs()
	for b.Loop() {
		if io := s.Window(a, z, 1000, 900); len(io.Series) != 721 {
			b.Fatalf("series %d", len(io.Series))
		}
	}
}
