package loader

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Load creates the schema (or continues an unfinished load, Options.Resume and
// Options.Shard), generates and streams every table segment by segment, and runs the
// post-load steps. tr (from NewTracker) reports progress; it may be nil.
func Load(ctx context.Context, db database.DB, o Options, tr *Tracker) (Stats, error) {
	s, err := newLoadSession(ctx, db, o, tr)
	if err != nil {
		return Stats{}, err
	}
	defer s.abortPostLoad()
	return s.run()
}

// loadSession is one Load: a method per phase, and what the phases decided and
// measured so far.
type loadSession struct {
	ctx   context.Context
	db    database.DB
	eng   *database.Engine
	ddl   database.DDL // the server's (database.DDLOf)
	lk    database.Locker
	o     Options
	start time.Time
	st    Stats
	// tr is the caller's progress, made once the scale is known when the caller gave
	// none; phases is where phase names go before that.
	tr, phases *Tracker
	prep       prepared
	// planned is every segment of the load, mine this process's jobs.
	planned map[segKey]int
	mine    []job
	// post builds keys and indexes: as each table finishes when one process loads
	// everything, else after all segments, in the shard that claims it.
	post *postLoader
}

// newLoadSession checks o and what the database can do.
func newLoadSession(ctx context.Context, db database.DB, o Options, tr *Tracker) (*loadSession, error) {
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.Shard.sharded() && (o.Shard.Index < 0 || o.Shard.Index >= o.Shard.Count) {
		return nil, fmt.Errorf("shard %s: the index must be 0 to %d", o.Shard, o.Shard.Count-1)
	}
	if o.Shard.sharded() && o.Drop {
		return nil, errors.New("a shard cannot drop the schema: another shard may be loading it; drop it first (brokerbench schema drop)")
	}
	// A fresh load creates the schema from o.Scale, so it must be valid first; a resumed
	// one may leave it out and take the marker's.
	if !o.Resume || o.ScaleGiven {
		if err := o.Scale.Validate(); err != nil {
			return nil, err
		}
	}
	eng, err := database.Of(db)
	if err != nil {
		return nil, err
	}
	ddl, err := database.DDLOf(db)
	if err != nil {
		return nil, err
	}
	lk, okLock := db.(database.Locker)
	if _, okSeg := db.(database.SegmentLoader); !okLock || !okSeg {
		return nil, fmt.Errorf("%s cannot load in segments", eng.Product)
	}
	s := &loadSession{ctx: ctx, db: db, eng: eng, ddl: ddl, lk: lk, o: o, start: time.Now(), tr: tr, phases: tr}
	if s.phases == nil {
		s.phases = &Tracker{}
	}
	return s, nil
}

// run runs the phases in order.
func (s *loadSession) run() (Stats, error) {
	if err := s.phase(PhaseCreate, s.create); err != nil {
		return s.st, err
	}
	if s.prep.complete {
		s.st.Note = fmt.Sprintf("shard %s: the load in %s is complete", s.o.Shard, s.db.Target())
		s.st.Elapsed = time.Since(s.start)
		return s.st, nil
	}
	if err := s.plan(); err != nil {
		return s.st, err
	}
	if err := s.phase(PhaseGenerate, s.generate); err != nil {
		return s.st, fmt.Errorf("generate and copy: %w", err)
	}
	if ours, err := s.claimPostLoad(); err != nil || !ours {
		return s.st, err
	}
	if err := s.verify(); err != nil {
		return s.st, err
	}
	if err := s.phase(PhaseIndex, s.post.finish); err != nil {
		return s.st, fmt.Errorf("indexes and keys: %w", err)
	}
	if err := s.phase(PhaseFreeze, func() error { return freezeTables(s.ctx, s.db, s.o, s.planned, s.prep.resumed) }); err != nil {
		return s.st, fmt.Errorf("freeze: %w", err)
	}
	if err := s.phase(PhaseAnalyze, func() error { return analyze(s.ctx, s.db, s.o.Workers) }); err != nil {
		return s.st, fmt.Errorf("analyze: %w", err)
	}
	return s.finish()
}

// phase runs fn as the named phase, timed into the stats.
func (s *loadSession) phase(name string, fn func() error) error {
	s.phases.setPhase(name)
	t0 := time.Now()
	err := fn()
	s.st.Phases = append(s.st.Phases, PhaseTime{Name: name, Duration: time.Since(t0)})
	return err
}

// create decides what the load does and creates the schema when it is to (prepare).
func (s *loadSession) create() (err error) {
	s.prep, err = prepare(s.ctx, s.db, s.ddl, s.lk, s.o)
	return err
}

// plan takes the scale and seed the load runs with, plans its segments and this
// process's jobs, counts what was committed before, and starts the post-loader of a
// load one process makes whole.
func (s *loadSession) plan() error {
	s.o = s.prep.o
	if err := s.o.Scale.Validate(); err != nil {
		return err
	}
	if s.tr == nil {
		s.tr = NewTracker(s.o.Scale)
		s.tr.setPhase(s.phases.Phase())
		s.phases = s.tr
	}
	all := plan(newKeyspace(s.o.Scale, s.o.Seed))
	s.planned = plannedSegments(all)
	s.mine = jobsFor(all, s.o.Scale, s.o.Shard)
	s.st.Resumed = s.prep.progress.count(plannedSegments(s.mine))
	for name, n := range s.prep.progress.tableRows() {
		if p := s.tr.table(name); p != nil {
			p.add(n, 0)
		}
	}
	// One process loads the whole database: keys and indexes of a table are built as
	// soon as its last segment commits. Shards leave all of it to the post-load.
	if s.o.Shard.sharded() {
		return nil
	}
	return s.startPostLoad(s.prep.resumed)
}

// startPostLoad makes the post-loader; withCatalog reads first what keys and indexes
// the database already has (a resumed load, the shard that claims the post-load).
func (s *loadSession) startPostLoad(withCatalog bool) (err error) {
	s.post = newPostLoader(s.ctx, s.db, s.ddl, s.o)
	if withCatalog {
		s.post.cat, err = readCatalog(s.ctx, s.db)
	}
	return err
}

// abortPostLoad stops the post-loader's builds still running when Load returns early.
func (s *loadSession) abortPostLoad() {
	if s.post != nil {
		s.post.abort()
	}
}

// generate runs this process's jobs, handing each table that finishes to the
// post-loader.
func (s *loadSession) generate() error {
	loaded := func(schema.Table) {}
	if s.post != nil {
		loaded = s.post.tableLoaded
	}
	return generation{db: s.db, jobs: s.mine, done: s.prep.progress, o: s.o, tr: s.tr, loaded: loaded, sql: s.eng.SQL}.run(s.ctx)
}

// claimPostLoad says whether this process builds the keys and indexes: always when it
// loads alone; a shard only when it committed the last segment (the others end
// here, with a note).
func (s *loadSession) claimPostLoad() (bool, error) {
	if !s.o.Shard.sharded() {
		return true, nil
	}
	claimed, note, err := claimPostLoad(s.ctx, s.db, s.lk, s.eng.SQL, s.o, s.planned)
	if err != nil || !claimed {
		s.st.Note, s.st.Elapsed = note, time.Since(s.start)
		return false, err
	}
	if err := s.startPostLoad(true); err != nil {
		return false, err
	}
	for _, t := range loadedTables() {
		s.post.tableLoaded(t)
	}
	return true, nil
}

// verify checks that every planned segment is in the database, whoever loaded it, and
// the row counts the scale fixes.
func (s *loadSession) verify() error {
	pr, err := readProgress(s.ctx, s.db)
	if err != nil {
		return err
	}
	if missing := len(s.planned) - pr.count(s.planned); missing > 0 {
		return fmt.Errorf("%d of %d segments are not in the database after the load", missing, len(s.planned))
	}
	rows := pr.tableRows()
	for _, p := range s.tr.Tables {
		p.rows.Store(rows[p.Name])
	}
	return verifyCounts(s.o.Scale, s.tr)
}

// finish marks the load complete and gathers the tables' figures.
func (s *loadSession) finish() (Stats, error) {
	if _, err := s.db.Exec(s.ctx, "UPDATE "+schema.LoadMarkerTable+" SET completed_at = CURRENT_TIMESTAMP WHERE load_id = 1"); err != nil {
		return s.st, fmt.Errorf("mark the load complete: %w", err)
	}
	s.tr.setPhase("done")
	s.st.Elapsed = time.Since(s.start)
	var err error
	s.st.Tables, s.st.SizesUnknown, err = tableStats(s.ctx, s.db, s.tr)
	return s.st, err
}
