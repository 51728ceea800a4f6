package iostat

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

// scripted is a Source that returns a prepared sequence of snapshots (nil = a failed
// read), one per call, each one second after the previous.
type scripted struct {
	mu      sync.Mutex
	devices []Device
	seq     []map[string]Counters
	wal     []uint64
	n       int
	t0      time.Time
}

func (s *scripted) Name() string      { return "scripted" }
func (s *scripted) Devices() []Device { return s.devices }
func (s *scripted) Note() string      { return "" }
func (s *scripted) Close() error      { return nil }

func (s *scripted) Snapshot(context.Context) (*Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.n
	s.n++
	if i >= len(s.seq) || s.seq[i] == nil {
		return nil, errors.New("scripted read failure")
	}
	snap := &Snapshot{At: s.t0.Add(time.Duration(i) * time.Second), Devices: s.seq[i]}
	if i < len(s.wal) {
		snap.WALBytes, snap.HasWAL = s.wal[i], true
	}
	return snap, nil
}

func dev(r, w, rt, wt, q uint64) Counters {
	return Counters{Has: HasReadTime | HasWriteTime | HasQueueTime | HasBusyTime, ReadOps: r, WriteOps: w,
		ReadBytes: r * 4096, WriteBytes: w * 8192, ReadTime: rt * 1000, WriteTime: wt * 1000, QueueTime: q * 1000,
		BusyTime: 500_000 * (r + w) / 100, TimeWrap: kernelTimeWrap}
}

func newScripted(src *scripted, walIdx int) *Sampler {
	// Scripted reads are stamped from now on: a failed read is stamped with the wall
	// clock, so a fixed date here made the order of edges depend on the day's time.
	src.t0 = time.Now().UTC()
	s := &Sampler{interval: time.Second, log: func(string, ...any) {}, sources: []Source{src}, walIdx: walIdx}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestWindowRatioOfSumsAndSeries(t *testing.T) {
	devs := []Device{{Name: "sdb", Role: RoleData, InTotals: true}, {Name: "sdc", Role: RoleWAL, InTotals: true}, {Name: "sdx", Role: RoleData}}
	src := &scripted{devices: devs, seq: []map[string]Counters{
		{"sdb": dev(0, 0, 0, 0, 0), "sdc": dev(0, 0, 0, 0, 0), "sdx": dev(0, 0, 0, 0, 0)},               // mark a (t=0)
		{"sdb": dev(100, 10, 100, 10, 110), "sdc": dev(0, 50, 0, 25, 25), "sdx": dev(100, 10, 0, 0, 0)}, // t=1
		// t=2: sdc's write time wraps at 2^32 ms and goes on.
		{"sdb": dev(300, 20, 500, 20, 520), "sdc": dev(0, 150, 0, 75, 75), "sdx": dev(300, 20, 0, 0, 0)}, // mark b (t=2)
	}, wal: []uint64{1000, 5000, 9000}}
	s := newScripted(src, 0)
	a := s.Mark()
	s.take(context.Background())
	b := s.Mark()
	io := s.Window(a, b, 50, 40)
	if io.Source != "scripted" {
		t.Fatalf("source %q", io.Source)
	}
	// Totals over sdb + sdc (sdx is a lower device): 300 reads, 170 writes in 2 s.
	if !near(io.ReadIOPS, 150) || !near(io.WriteIOPS, 85) {
		t.Fatalf("iops = %v / %v", io.ReadIOPS, io.WriteIOPS)
	}
	// Read await: 500 ms over 300 reads; write await: (20+75) ms over 170 writes.
	if !near(io.ReadAwaitMS, 500.0/300) || !near(io.WriteAwaitMS, 95.0/170) {
		t.Fatalf("await = %v / %v", io.ReadAwaitMS, io.WriteAwaitMS)
	}
	if !near(io.QueueDepth, (0.520+0.075)/2) {
		t.Fatalf("queue = %v", io.QueueDepth)
	}
	if !near(io.ReadMBps, 300*4096/float64(mib)/2) {
		t.Fatalf("read MB/s = %v", io.ReadMBps)
	}
	if !near(io.IOPerTxn, 470.0/50) || !near(io.WALBytesPerCommit, 8000.0/40) {
		t.Fatalf("derived: io/txn %v, wal/commit %v", io.IOPerTxn, io.WALBytesPerCommit)
	}
	if len(io.Devices) != 3 || io.Devices[1].Role != RoleWAL || !near(io.Devices[1].WriteIOPS, 75) || io.Devices[2].Name != "sdx" ||
		io.Devices[0].Layer != "" || io.Devices[2].Layer != LayerMember {
		t.Fatalf("devices = %+v", io.Devices)
	}
	if len(io.Series) != 2 || !near(io.Series[0].ReadIOPS, 100) || !near(io.Series[1].ReadIOPS, 200) {
		t.Fatalf("series = %+v", io.Series)
	}
	if live := s.Live(); !near(live.ReadIOPS, 200) {
		t.Fatalf("live = %+v", live)
	}
	if io.Note != "" {
		t.Fatalf("note = %q", io.Note)
	}
}

func TestWindowCounterWrapAcrossWindow(t *testing.T) {
	devs := []Device{{Name: "sdb", Role: RoleData, InTotals: true}}
	a0 := dev(10, 10, 0, 0, 0)
	a0.WriteTime = kernelTimeWrap - 2000 // 2 ms below the wrap
	b0 := dev(10, 20, 0, 0, 0)
	b0.WriteTime = 8000 // 8 ms after it: 10 ms for 10 writes
	src := &scripted{devices: devs, seq: []map[string]Counters{{"sdb": a0}, {"sdb": b0}}}
	s := newScripted(src, -1)
	io := s.Window(s.Mark(), s.Mark(), 0, 0)
	if !near(io.WriteAwaitMS, 1) || !near(io.WriteIOPS, 10) {
		t.Fatalf("wrap: %+v", io.IOFigures)
	}
}

func TestWindowDeviceDisappearsOrResets(t *testing.T) {
	devs := []Device{{Name: "sdb", Role: RoleData, InTotals: true}, {Name: "sdc", Role: RoleWAL, InTotals: true}}
	src := &scripted{devices: devs, seq: []map[string]Counters{
		{"sdb": dev(0, 0, 0, 0, 0), "sdc": dev(500, 500, 50, 50, 100)},
		{"sdb": dev(10, 10, 1, 1, 2)},                            // sdc unplugged
		{"sdb": dev(20, 20, 2, 2, 4), "sdc": dev(1, 1, 0, 0, 0)}, // sdc back, counters from zero
	}}
	s := newScripted(src, -1)
	a := s.Mark()
	mid := s.Mark()
	b := s.Mark()
	io := s.Window(a, mid, 0, 0)
	if !near(io.ReadIOPS, 10) || len(io.Devices) != 1 || !strings.Contains(io.Note, "sdc disappeared") {
		t.Fatalf("missing device: %+v note %q", io.IOFigures, io.Note)
	}
	io = s.Window(a, b, 0, 0)
	if !near(io.ReadIOPS, 10) || len(io.Devices) != 1 || !strings.Contains(io.Note, "sdc: counters went backwards") {
		t.Fatalf("reset device: %+v devices %v note %q", io.IOFigures, io.Devices, io.Note)
	}
	// The series keeps a point per interval: sdb alone still gives one.
	if len(io.Series) != 2 {
		t.Fatalf("series = %+v", io.Series)
	}
}

func TestWindowShrinksWhenAMarkFails(t *testing.T) {
	devs := []Device{{Name: "sdb", Role: RoleData, InTotals: true}}
	src := &scripted{devices: devs, seq: []map[string]Counters{
		nil, // the read at mark a times out
		{"sdb": dev(0, 0, 0, 0, 0)},
		{"sdb": dev(0, 30, 0, 3, 3)},
		{"sdb": dev(0, 60, 0, 6, 6)},
	}}
	s := newScripted(src, -1)
	a := s.Mark()
	s.take(context.Background())
	s.take(context.Background())
	b := s.Mark()
	io := s.Window(a, b, 0, 0)
	// The window runs from the first good read (t=1) to b (t=3): 60 writes in 2 s.
	if !near(io.WriteIOPS, 30) || !strings.Contains(io.Note, "window shrunk") {
		t.Fatalf("shrunk window: %+v note %q", io.IOFigures, io.Note)
	}
	// No series point spans the failed read.
	if len(io.Series) != 2 {
		t.Fatalf("series = %+v", io.Series)
	}
	// 3 writes per transaction throughout: 30 transactions over the whole 3 s
	// window, 20 of them in the 2 s measured; per transaction divides by those 20.
	io = s.Window(a, b, 30, 30)
	if io.WritesPerTxn == nil || !near(*io.WritesPerTxn, 3) || !near(io.IOPerTxn, 3) {
		t.Errorf("shrunk window: %v writes per txn, %v I/O per txn; want 3", fmtPtr(io.WritesPerTxn), io.IOPerTxn)
	}
	// Nothing readable at all: figures stay empty, the note says why.
	empty := newScripted(&scripted{devices: devs, seq: []map[string]Counters{nil, nil}}, -1)
	io = empty.Window(empty.Mark(), empty.Mark(), 10, 10)
	if io.ReadIOPS != 0 || !strings.Contains(io.Note, "no two successful reads") {
		t.Fatalf("empty: %+v %q", io, io.Note)
	}
}

func TestOpenWithoutAnySourceRecordsNone(t *testing.T) {
	var logged []string
	s, err := Open(t.Context(), Options{Log: func(f string, a ...any) { logged = append(logged, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Start(t.Context())
	io := s.Window(s.Mark(), s.Mark(), 100, 100)
	if io.Source != SourceNone || !strings.Contains(io.Note, "no usable I/O source") {
		t.Fatalf("io = %+v", io)
	}
	if len(logged) != 1 {
		t.Fatalf("want exactly one notice, got %q", logged)
	}
}

func TestOpenDataDirNotLocal(t *testing.T) {
	s, err := Open(t.Context(), Options{DataDir: "/nonexistent/pgdata"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Source() != SourceNone {
		t.Fatalf("source = %s", s.Source())
	}
}

func TestOpenUnknownDeviceIsAnError(t *testing.T) {
	if _, err := Open(t.Context(), Options{Devices: []string{"nosuchdisk0"}}); err == nil {
		t.Fatal("an unknown --io-device was accepted")
	}
}

func TestOpenFixtureByDevices(t *testing.T) {
	s, err := Open(t.Context(), Options{Devices: []string{"dm-1=data", "sdd=wal"}, ProcRoot: "testdata/root/proc", SysRoot: "testdata/root/sys"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Source() != SourceDiskstats || len(s.Devices()) != 2 {
		t.Fatalf("source %s devices %+v", s.Source(), s.Devices())
	}
	m := s.Mark()
	if e := s.entryAt(m.seq); e == nil || e.snaps[0] == nil || e.snaps[0].Devices["dm-1"].ReadOps != 610 {
		t.Fatalf("mark = %+v", e)
	}
}

func TestWindowWarnsAboutSilentDevice(t *testing.T) {
	devs := []Device{{Name: "nvme0n1", Role: RoleDataWAL, InTotals: true}}
	src := &scripted{devices: devs, seq: []map[string]Counters{{"nvme0n1": dev(5, 5, 1, 1, 2)}, {"nvme0n1": dev(5, 5, 1, 1, 2)}}}
	s := newScripted(src, -1)
	io := s.Window(s.Mark(), s.Mark(), 500, 400)
	if !strings.Contains(io.Note, "no I/O counted on nvme0n1 during 400 commits") {
		t.Fatalf("note = %q", io.Note)
	}
	// No commits: an idle window is no reason to warn.
	src2 := &scripted{devices: devs, seq: []map[string]Counters{{"nvme0n1": dev(5, 5, 1, 1, 2)}, {"nvme0n1": dev(5, 5, 1, 1, 2)}}}
	s2 := newScripted(src2, -1)
	if io := s2.Window(s2.Mark(), s2.Mark(), 0, 0); io.Note != "" {
		t.Fatalf("idle note = %q", io.Note)
	}
}

func fmtPtr(p *float64) any {
	if p == nil {
		return "nil"
	}
	return *p
}
