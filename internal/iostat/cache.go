package iostat

import (
	"github.com/brokerbench/brokerbench/results/figures"
)

// CacheCounters are a database source's cumulative buffer-cache page requests: Hits
// found in the database's own cache, Reads asked of the OS or the disk.
type CacheCounters struct {
	Hits, Reads int64
}

// dbIndex is the index of the database's own source in s.sources, -1 when there is
// none: the same source that gives the WAL volume.
func (s *Sampler) dbIndex() int { return s.walIdx }

// HitRatio is the database's buffer-cache hit ratio over [a, b] (the marks of a
// step's measured window), from the counter deltas at the same snapshots as the
// window's I/O figures. It is false when the database's counters are not readable,
// a read at an edge failed, or the window saw no page requests.
func (s *Sampler) HitRatio(a, b Mark) (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.dbIndex()
	if i < 0 {
		return 0, false
	}
	sa, sb, _ := s.edges(i, a, b)
	if sa == nil || sa.Cache == nil || sb.Cache == nil || sa.Epoch != sb.Epoch {
		return 0, false
	}
	return figures.CacheHitRatio(sb.Cache.Hits-sa.Cache.Hits, sb.Cache.Reads-sa.Cache.Reads)
}

// LiveHitRatio is the hit ratio between the last two snapshots that have cache
// counters, for the live line.
func (s *Sampler) LiveHitRatio() (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.dbIndex()
	if i < 0 {
		return 0, false
	}
	var last *Snapshot
	for k := len(s.hist) - 1; k >= 0; k-- {
		sn := s.hist[k].snaps[i]
		if sn == nil {
			continue
		}
		if sn.Cache == nil {
			// A source whose cache counters cannot be read never has any: do not
			// walk the whole history for them on every live tick.
			return 0, false
		}
		if last == nil {
			last = sn
			continue
		}
		if sn.Epoch != last.Epoch {
			return 0, false
		}
		return figures.CacheHitRatio(last.Cache.Hits-sn.Cache.Hits, last.Cache.Reads-sn.Cache.Reads)
	}
	return 0, false
}
