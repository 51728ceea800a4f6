package iostat

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
)

// Options configure Open.
type Options struct {
	// Devices names block devices by hand (--io-device NAME, repeatable; "NAME=ROLE"
	// gives the role); it overrides discovery. With NodeExporterURL it picks the
	// remote host's devices.
	Devices []string
	// NodeExporterURL scrapes a remote node_exporter (--io-node-exporter URL).
	NodeExporterURL string
	// Interval is the series period (--io-interval); 0 means 5 s.
	Interval time.Duration
	// DataDir and WALDir come from the database when it runs on this host.
	DataDir, WALDir string
	// DB is a connection to the database for its own I/O views and its WAL volume;
	// the source opens its own dedicated connection from it.
	DB database.DB
	// Log receives one-time notices; nil discards them.
	Log func(format string, args ...any)

	// ProcRoot and SysRoot replace /proc and /sys (tests).
	ProcRoot, SysRoot string
}

// DefaultInterval is the series period when Options.Interval is 0 (docs/storage.md §5.4).
const DefaultInterval = 5 * time.Second

// maxHistory bounds the kept snapshots (at 5 s, about 11 days); the oldest half is
// dropped when it is reached.
const maxHistory = 200_000

// entry is one sampling instant: a snapshot per source, nil where the read failed.
type entry struct {
	seq   int64
	at    time.Time
	snaps []*Snapshot
}

// point is one interval of the series, between two consecutive successful primary
// snapshots.
type point struct {
	from, to time.Time
	fig      results.IOFigures
}

// Sampler takes snapshots of its sources periodically and at the window edges the
// driver marks, and turns pairs of them into a step's figures.
type Sampler struct {
	interval time.Duration
	log      func(string, ...any)
	sources  []Source // [0] is the primary (device figures); the others add WAL volume
	walIdx   int      // the source giving WAL bytes, -1 when none
	openNote string   // why the primary is what it is (e.g. why "none")
	system   *results.System
	// hostIdx is the source of the database host's CPU, memory and network, -1
	// when unknown (hostNote says why); driverIdx is this machine's when the
	// database runs on another one, else -1 (host.go).
	hostIdx, driverIdx int
	hostNote           string
	// dirs are the database's data and WAL directories whose disks the primary
	// source measures on this host; dirsWhy says why there are none.
	dirs    []string
	dirsWhy string

	takeMu sync.Mutex // serialises reads so the history stays in time order

	mu       sync.Mutex
	hist     []entry
	first    int64 // seq of hist[0]
	points   []point
	lastOK   *Snapshot // primary's last successful snapshot, for the next point
	failures int

	stopOnce sync.Once
	cancel   context.CancelFunc
	done     chan struct{}
}

// Mark is a snapshot of all sources at one instant (a window edge).
type Mark struct {
	seq int64
	At  time.Time
}

// Start samples every Interval until ctx ends or Close is called.
func (s *Sampler) Start(ctx context.Context) {
	if s.cancel != nil || !s.reads() {
		return
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(s.interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.take(ctx)
			}
		}
	}()
}

// Mark takes a synchronous snapshot of every source now.
func (s *Sampler) Mark() Mark {
	e := s.take(context.Background())
	return Mark{seq: e.seq, At: e.at}
}

// readTimeout keeps a slow source (a remote exporter, a busy database) from holding
// up the next sample: a read that does not finish within it is a gap.
func (s *Sampler) readTimeout() time.Duration {
	return s.interval * 4 / 5
}

func (s *Sampler) take(ctx context.Context) entry {
	s.takeMu.Lock()
	defer s.takeMu.Unlock()
	e := entry{snaps: make([]*Snapshot, len(s.sources))}
	if s.reads() {
		var wg sync.WaitGroup
		for i, src := range s.sources {
			if src.Name() == SourceNone {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				rctx, cancel := context.WithTimeout(ctx, s.readTimeout())
				defer cancel()
				snap, err := src.Snapshot(rctx)
				if err != nil {
					s.noteFailure(src, err)
					return
				}
				e.snaps[i] = snap
			}()
		}
		wg.Wait()
	}
	e.at = time.Now()
	if p := e.snaps[0]; p != nil && !p.At.IsZero() {
		e.at = p.At
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e.seq = s.first + int64(len(s.hist))
	s.hist = append(s.hist, e)
	if len(s.hist) >= maxHistory {
		drop := len(s.hist) / 2
		s.hist = append([]entry(nil), s.hist[drop:]...)
		s.first += int64(drop)
		cut := 0
		for cut < len(s.points) && s.points[cut].to.Before(s.hist[0].at) {
			cut++
		}
		s.points = append([]point(nil), s.points[cut:]...)
	}
	if cur := e.snaps[0]; cur != nil {
		if prev := s.lastOK; prev != nil {
			if tot, secs, _, ok := s.totals(prev, cur); ok {
				s.points = append(s.points, point{from: prev.At, to: cur.At, fig: Figures(tot, secs)})
			}
		}
		s.lastOK = cur
	} else {
		// A failed read breaks the series: the next point starts at the next success
		// only after one more, so no point spans a gap.
		s.lastOK = nil
	}
	return e
}

// noteFailure logs the first failure of a source and then every 100th, so a dead
// exporter does not flood the console.
func (s *Sampler) noteFailure(src Source, err error) {
	s.mu.Lock()
	s.failures++
	n := s.failures
	s.mu.Unlock()
	if n == 1 || n%100 == 0 {
		s.log("iostat: %s read failed (%d so far, each a gap in the series): %v", src.Name(), n, err)
	}
}

// seconds is the interval between two snapshots: the source's own clock when both
// have it, else the driver's monotonic clock.
func seconds(a, b *Snapshot) float64 {
	if !a.RemoteAt.IsZero() && !b.RemoteAt.IsZero() {
		return b.RemoteAt.Sub(a.RemoteAt).Seconds()
	}
	return b.At.Sub(a.At).Seconds()
}

// totals sums the deltas of the devices counted in totals. ok is false when the
// interval has no valid figures (epoch change, no device usable); problems lists
// devices left out.
func (s *Sampler) totals(a, b *Snapshot) (Counters, float64, []string, bool) {
	if a.Epoch != b.Epoch {
		return Counters{}, 0, []string{"statistics were reset in the window"}, false
	}
	var parts []Counters
	var problems []string
	for _, dv := range s.sources[0].Devices() {
		if !dv.InTotals {
			continue
		}
		d, err := deviceDelta(a, b, dv.Name)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		parts = append(parts, d)
	}
	secs := seconds(a, b)
	if len(parts) == 0 || secs <= 0 {
		return Counters{}, 0, problems, false
	}
	return Sum(parts...), secs, problems, true
}

func deviceDelta(a, b *Snapshot, name string) (Counters, error) {
	ca, okA := a.Devices[name]
	cb, okB := b.Devices[name]
	switch {
	case !okA && !okB:
		return Counters{}, fmt.Errorf("%s missing for the whole window", name)
	case !okA:
		return Counters{}, fmt.Errorf("%s missing at the window start", name)
	case !okB:
		return Counters{}, fmt.Errorf("%s disappeared during the window", name)
	}
	d, err := Delta(ca, cb)
	if err != nil {
		return Counters{}, fmt.Errorf("%s: %v", name, err)
	}
	return d, nil
}

// entryAt returns the history entry of seq, nil when it was dropped.
func (s *Sampler) entryAt(seq int64) *entry {
	i := seq - s.first
	if i < 0 || i >= int64(len(s.hist)) {
		return nil
	}
	return &s.hist[i]
}

// edges finds the snapshots of source i for window [a, b]: the marks themselves, or
// when a mark's read failed, the nearest successful snapshot inside the window (the
// window shrinks, and the note says so; docs/storage.md §5.2).
func (s *Sampler) edges(i int, a, b Mark) (*Snapshot, *Snapshot, string) {
	var sa, sb *Snapshot
	var qa, qb int64
	for q := a.seq; q <= b.seq; q++ {
		if e := s.entryAt(q); e != nil && e.snaps[i] != nil {
			sa, qa = e.snaps[i], q
			break
		}
	}
	for q := b.seq; q >= a.seq; q-- {
		if e := s.entryAt(q); e != nil && e.snaps[i] != nil {
			sb, qb = e.snaps[i], q
			break
		}
	}
	if sa == nil || sb == nil || sa == sb {
		return nil, nil, "no two successful reads in the window"
	}
	// Whether an edge moved is decided by which read served it, not by how much time
	// was lost: the next read can follow a failed one within a millisecond.
	var note string
	if qa != a.seq || qb != b.seq {
		lost := sa.At.Sub(a.At) + b.At.Sub(sb.At)
		note = fmt.Sprintf("window shrunk by %.1f s: a read at its edge failed", lost.Seconds())
	}
	return sa, sb, note
}

// Window returns the figures over exactly [a, b]: totals over the top devices,
// every device with its role, the series points inside the window, I/O per
// transaction and WAL bytes per commit.
func (s *Sampler) Window(a, b Mark, txns, commits int64) *results.StepIO {
	s.mu.Lock()
	defer s.mu.Unlock()
	src := s.sources[0]
	io := &results.StepIO{Source: src.Name()}
	var notes []string
	addNote := func(n string) {
		if n != "" {
			notes = append(notes, n)
		}
	}
	defer func() { io.Note = strings.Join(notes, "; ") }()
	if src.Name() == SourceNone {
		addNote(s.openNote)
		return io
	}
	addNote(src.Note())
	sa, sb, edgeNote := s.edges(0, a, b)
	addNote(edgeNote)
	if sa != nil {
		tot, secs, problems, ok := s.totals(sa, sb)
		for _, p := range problems {
			addNote(p)
		}
		if ok {
			io.IOFigures = Figures(tot, secs)
			// A window shrunk by a failed read at an edge counted the I/O of part of
			// it only: divide by the transactions of that part (the share of the
			// window it covers), not by all of them.
			if whole := b.At.Sub(a.At).Seconds(); whole > secs && secs > 0 {
				txns = int64(math.Round(float64(txns) * secs / whole))
			}
			if txns > 0 {
				io.IOPerTxn = float64(tot.ReadOps+tot.WriteOps) / float64(txns)
			}
			io.PerTxn(secs, txns)
			for _, dv := range src.Devices() {
				d, err := deviceDelta(sa, sb, dv.Name)
				if err != nil {
					if !dv.InTotals {
						addNote(err.Error())
					}
					continue
				}
				dio := results.DeviceIO{Name: dv.Name, Role: dv.Role, IOFigures: Figures(d, secs)}
				if !dv.InTotals {
					dio.Layer = LayerMember
				}
				io.Devices = append(io.Devices, dio)
				if dv.InTotals && d.ReadOps+d.WriteOps == 0 && commits > 0 && src.Name() != SourceNone {
					// Commits that write WAL must reach the disk; none counted usually
					// means the device's accounting is off (docs/storage.md §6.2).
					addNote(fmt.Sprintf("no I/O counted on %s during %d commits: its statistics may be disabled (queue/iostats = 0, an NVMe multipath head, md without accounting)", dv.Name, commits))
				}
			}
		}
	}
	if s.walIdx >= 0 && commits > 0 {
		if wa, wb, _ := s.edges(s.walIdx, a, b); wa != nil && wa.HasWAL && wb.HasWAL && wa.Epoch == wb.Epoch && wb.WALBytes >= wa.WALBytes {
			io.WALBytesPerCommit = float64(wb.WALBytes-wa.WALBytes) / float64(commits)
		}
	}
	for _, p := range s.points {
		if !p.from.Before(a.At) && !p.to.After(b.At) {
			io.Series = append(io.Series, results.IOSample{At: p.to, IOFigures: p.fig})
		}
	}
	return io
}

// Live returns the last interval's total figures, for the live line.
func (s *Sampler) Live() results.IOFigures {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.points) == 0 {
		return results.IOFigures{}
	}
	return s.points[len(s.points)-1].fig
}

// System is the storage stack under the database's directories when the sampler
// measures them on this host (stack.go); nil otherwise.
func (s *Sampler) System() *results.System { return s.system }

// Source returns the primary source's name ("diskstats", "none", ...).
func (s *Sampler) Source() string { return s.sources[0].Name() }

// Devices returns the primary source's devices and roles, for the run's header.
func (s *Sampler) Devices() []Device { return s.sources[0].Devices() }

// Dirs are the database's data and WAL directories when the sampler measures the
// disks under them on this host (a local server, devices not named by hand);
// otherwise nil, and why not. run --capture-io captures those disks.
func (s *Sampler) Dirs() ([]string, string) { return s.dirs, s.dirsWhy }

// Close stops sampling and closes the sources (the database connection).
func (s *Sampler) Close() {
	s.stopOnce.Do(func() {
		if s.cancel != nil {
			s.cancel()
			<-s.done
		}
		s.takeMu.Lock()
		defer s.takeMu.Unlock()
		seen := map[Source]bool{}
		for _, src := range s.sources {
			if !seen[src] {
				seen[src] = true
				if err := src.Close(); err != nil {
					s.log("iostat: close %s: %v", src.Name(), err)
				}
			}
		}
	})
}
