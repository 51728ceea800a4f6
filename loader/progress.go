package loader

import (
	"sync/atomic"

	"github.com/brokerbench/brokerbench/schema"
)

// Tracker exposes the load's progress per table; the command polls it to draw bars or
// print lines, so the loader itself has no display code.
type Tracker struct {
	Tables []*TableProgress
	phase  atomic.Value // string
}

// TableProgress counts one table's rows as its sink streams them.
type TableProgress struct {
	Name     string
	Expected int64 // exact for deterministic tables, an estimate for the others
	rows     atomic.Int64
	bytes    atomic.Int64
	done     atomic.Bool
}

func (p *TableProgress) add(rows, bytes int64) {
	p.rows.Add(rows)
	p.bytes.Add(bytes)
}

// Rows and Bytes (as streamed) so far.
func (p *TableProgress) Rows() int64  { return p.rows.Load() }
func (p *TableProgress) Bytes() int64 { return p.bytes.Load() }

// Done reports whether the table's stream has committed.
func (p *TableProgress) Done() bool { return p.done.Load() }

// Phase returns the current phase name.
func (t *Tracker) Phase() string {
	s, _ := t.phase.Load().(string)
	return s
}

func (t *Tracker) setPhase(p string) { t.phase.Store(p) }

// NewTracker returns a tracker with every loaded table and its expected rows.
func NewTracker(sc schema.Scale) *Tracker {
	t := &Tracker{}
	t.setPhase("")
	for _, tb := range loadedTables() {
		t.Tables = append(t.Tables, &TableProgress{Name: tb.Name, Expected: sc.Rows(tb.Name)})
	}
	return t
}

func (t *Tracker) table(name string) *TableProgress {
	for _, p := range t.Tables {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// loadedTables are the workload's tables and brokerbench's opening balances.
func loadedTables() []schema.Table {
	out := schema.Tables()
	for _, m := range schema.MetaTables() {
		if m.Name == schema.OpeningBalanceTable {
			out = append(out, m)
		}
	}
	return out
}
