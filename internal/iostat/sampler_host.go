package iostat

import (
	"os"

	"github.com/brokerbench/brokerbench/results"
)

// addHosts adds the host figures' sources (docs/host.md): the database's host is
// the node_exporter's when one is read (the same scrape as its disks), else this
// machine's procfs when the database runs here; this machine is recorded apart as
// the driver's host whenever the database's host is another one or unknown.
func (s *Sampler) addHosts(o Options, proc, sys string, db *dbSource) {
	var local *procHost
	openLocal := func() int {
		if local == nil {
			h, err := newProcHost(proc, sys)
			if err != nil {
				s.log("iostat: this host's CPU, memory and network are not readable: %v", err)
				return -1
			}
			local = h
			s.sources = append(s.sources, h)
		}
		return len(s.sources) - 1
	}
	if ne, ok := s.sources[0].(*nodeExporter); ok {
		if ne.hostNote == "" {
			s.hostIdx = 0
		} else {
			s.hostNote = ne.hostNote
			s.log("iostat: no host figures for the database's host: %s", ne.hostNote)
		}
		s.driverIdx = openLocal()
		return
	}
	if databaseHere(o, proc, db) {
		s.hostIdx = openLocal()
		if s.hostIdx < 0 {
			s.hostNote = "this host's procfs is not readable"
		}
		return
	}
	s.hostNote = "the database's host is not this one (or is unknown); pass --io-node-exporter URL for its CPU, memory and network"
	s.driverIdx = openLocal()
}

// databaseHere says whether the database runs on this machine: its server process
// works in the data directory here when that can be seen, else its data directory
// exists here and its address is local.
func databaseHere(o Options, proc string, db *dbSource) bool {
	if db != nil {
		if sp, ok := db.r.(serverProcess); ok {
			pid, host := sp.ServerProcess()
			local, _ := serverIsLocal(proc, pid, host, o.DataDir)
			return local
		}
	}
	if o.DataDir == "" {
		return false
	}
	_, err := os.Stat(o.DataDir)
	return err == nil
}

// reads tells whether any source is read at all.
func (s *Sampler) reads() bool {
	for _, src := range s.sources {
		if src.Name() != SourceNone {
			return true
		}
	}
	return false
}

// HostWindow returns what the database's host and, when it is another machine,
// the driver's own host spent over exactly [a, b], from the same snapshots as the
// storage figures. host is never nil (its source "none" with a note when unknown);
// driver is nil when the database runs on this machine.
func (s *Sampler) HostWindow(a, b Mark) (host, driver *results.StepHost) {
	s.mu.Lock()
	defer s.mu.Unlock()
	host = &results.StepHost{Source: results.HostSourceNone, Note: s.hostNote}
	if s.hostIdx >= 0 {
		host = s.hostWindow(s.hostIdx, a, b)
	}
	if s.driverIdx >= 0 {
		driver = s.hostWindow(s.driverIdx, a, b)
	}
	return host, driver
}

func (s *Sampler) hostWindow(i int, a, b Mark) *results.StepHost {
	name := hostSourceName(s.sources[i])
	sa, sb, note := s.edges(i, a, b)
	if sa == nil || sa.Host == nil || sb.Host == nil {
		if note == "" {
			note = "no host counters at the window's edges"
		}
		return &results.StepHost{Source: name, Note: note}
	}
	var readings []*HostCounters
	var series []results.HostSample
	var prev *Snapshot
	for q := a.seq; q <= b.seq; q++ {
		e := s.entryAt(q)
		if e == nil || e.snaps[i] == nil || e.snaps[i].Host == nil {
			prev = nil // no point spans a failed read
			continue
		}
		cur := e.snaps[i]
		readings = append(readings, cur.Host)
		if prev != nil {
			if f, _, err := hostFigures(prev.Host, cur.Host, seconds(prev, cur)); err == nil {
				series = append(series, results.HostSample{At: cur.At, HostFigures: f})
			}
		}
		prev = cur
	}
	h := hostWindow(name, sa, sb, readings)
	if note != "" {
		h.Note = joinNotes(note, h.Note)
	}
	if len(series) > 1 {
		h.Series = series
	}
	return h
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// LiveHost returns the database host's figures between its last two readings, for
// the live line; false when unknown.
func (s *Sampler) LiveHost() (results.HostFigures, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.hostIdx
	if i < 0 {
		return results.HostFigures{}, false
	}
	n := len(s.hist)
	if n < 2 {
		return results.HostFigures{}, false
	}
	prev, last := s.hist[n-2].snaps[i], s.hist[n-1].snaps[i]
	if prev == nil || last == nil || prev.Host == nil || last.Host == nil {
		return results.HostFigures{}, false
	}
	f, _, err := hostFigures(prev.Host, last.Host, seconds(prev, last))
	f.RunQueue = last.Host.ProcsRunning
	return f, err == nil
}
