package iostat

import "github.com/brokerbench/brokerbench/results"

// Background is the database server's background work over [a, b] (the marks of a
// step's measured window): the checkpoints completed and the buffers they wrote, from
// the counter deltas at the window's edges, and the seconds in which an autovacuum
// worker ran, from every read inside it (each read counts for the interval before
// it). It is false when the database's counters are not readable or a read at an edge
// failed.
func (s *Sampler) Background(a, b Mark) (results.Background, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.dbIndex()
	if i < 0 {
		return results.Background{}, false
	}
	sa, sb, _ := s.edges(i, a, b)
	if sa == nil || sa.Background == nil || sb.Background == nil || sa.Epoch != sb.Epoch {
		return results.Background{}, false
	}
	bg := results.Background{
		Checkpoints:       max(sb.Background.Checkpoints-sa.Background.Checkpoints, 0),
		CheckpointBuffers: max(sb.Background.CheckpointBuffers-sa.Background.CheckpointBuffers, 0),
	}
	prev := sa
	for q := a.seq + 1; q <= b.seq; q++ {
		e := s.entryAt(q)
		if e == nil || e.snaps[i] == nil {
			continue
		}
		sn := e.snaps[i]
		if sn.Background != nil && sn.Background.Autovacuums > 0 && sn.At.After(prev.At) {
			bg.AutovacuumS += sn.At.Sub(prev.At).Seconds()
		}
		prev = sn
	}
	bg.AutovacuumS = float64(int64(bg.AutovacuumS*10+0.5)) / 10
	return bg, true
}
