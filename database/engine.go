package database

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Engine is one database as brokerbench drives it: everything that differs between
// databases and is not a method of an open pool. Each database sub-package declares
// one and registers it from its init function; cmd links the sub-packages in
// (cmd/brokerbench/databases.go). Register refuses an engine without Name, Open, DDL,
// SQL, Classify and ClockSQL; every other field has a default, which its comment
// gives. Adding a database touches its own sub-package, that file's import line, a
// Name constant in database.go only when txn's statements need an override for it
// (txn.override, keyed by the name), those overrides and the statement goldens'
// import line (txn/statements_test.go), and ARCHITECTURE.md's import graph, which the
// architecture test checks; that test finds the engine's client from its package's
// imports (ARCHITECTURE.md, "Adding a database").
//
// What an open pool can do beyond DB is found by type assertion on the DB that Open
// returns. A load needs SegmentLoader (the bulk path, Binary paired with RowFormat) and
// Locker; load --resume needs Cataloguer. Optional: Freezer, Maintainer (index builds
// with more memory, statistics), Sizer, Pipeliner and Committer (fewer round trips),
// IOStatsOpener (the server's I/O views), CacheStatsReader, DatabaseSizer and
// PoolStatser; the DDL may implement KeyDeferrer, KeyIndexer and FKValidator.
type Engine struct {
	// Name is what DB.Name of its pools returns and result files record.
	Name Name
	// Product names the database for people: "PostgreSQL".
	Product string
	// Schemes are the DSN URL schemes it accepts, lower case: "postgres".
	Schemes []string
	// KeyValueDSN says it also takes a DSN that is not a URL (libpq's key=value form);
	// such a DSN, and one whose scheme no engine claims, goes to this engine.
	KeyValueDSN bool
	// Open connects to dsn. Its errors never carry the DSN's password.
	Open func(ctx context.Context, dsn string, o Options) (DB, error)
	// DDL renders the schema, the trade-id sequence included. It may also implement
	// KeyDeferrer, KeyIndexer and FKValidator.
	DDL DDL
	// SQL turns portable statement text (PostgreSQL's $1, $2 placeholders) into the
	// text this database runs.
	SQL func(portable string) string
	// Classify sorts an error its client returned by code and type, never by message;
	// ok is false for an error that is not its client's, which the shared rules in
	// Classify then sort.
	Classify func(err error) (c Class, ok bool)
	// Connections asks the server behind db how many more sessions it takes (run's
	// connection check); nil: not known, and the run does not check.
	Connections func(ctx context.Context, db DB) (ConnectionRoom, error)
	// ConnKind sorts a connection failure its client or server reported by code
	// (refused, reset, timed out; ConnectionKind); nil, or ok false: the errno and
	// error types the clients share decide alone.
	ConnKind func(err error) (k ConnKind, ok bool)
	// Routines is how this database installs and calls the workload's server routines
	// (run --frames server, docs/workload.md §13); nil for a database without them.
	// The routines' own source is the workload's (txn/routines/<Name>.sql).
	Routines *RoutineDialect
	// RoutineCheck recognises, by its error code, an output check that one of the
	// workload's server routines found violated (run --frames server,
	// docs/workload.md §13), and returns the frame it belongs to and what failed. Nil
	// for an engine without server routines.
	RoutineCheck func(err error) (frame int, what string, ok bool)
	// CheckpointSQL writes every dirty page of the server out now (run --repeat
	// checkpoints before each repeat, so each starts as far from the last one); ""
	// where no statement forces a full checkpoint (MariaDB and MySQL flush their
	// pages by their own rules).
	CheckpointSQL string
	// ClockSQL reads the server's clock now, as one timestamp (not the transaction's
	// start: a sharded run measures its clock's offset against it, ServerTime).
	ClockSQL string
	// Shown, when set, names a DSN's server for messages and result files without
	// secrets, in the engine's documented form ("host:port, database D, user U"); ""
	// for a DSN it cannot read. Without it, or for "", Shown gives Redact's URL.
	Shown func(dsn string) string
	// RowFormat, when set, encodes load rows in the wire format the engine's
	// SegmentLoader takes as Segment.Binary; without it the loader sends boxed rows.
	RowFormat *RowFormat
	// Versions names the server versions brokerbench supports, as the README states
	// them ("13 or newer"), and MinVersion is the oldest of them in ServerInfo.Num's
	// form, below which run and load refuse the server (CheckVersion). Zero checks
	// nothing: an engine whose Num is not comparable across the products it serves
	// (SQL Server and Babelfish) describes an old server in ServerInfo.Notes instead.
	Versions   string
	MinVersion int
	// NextValue renders the expression that takes a sequence's next value; nil for the
	// portable nextval('name'). The workload draws trade ids from a sequence, not an
	// identity column, so an id is known before its insert.
	NextValue func(sequence string) string
	// TablesScope is a condition on information_schema.tables that keeps the tables
	// of the session's own database, for the loader's look at what exists (an earlier
	// load, its marker); "" where the view lists those alone (PostgreSQL's and SQL
	// Server's show the connection's database only). MySQL's lists every database of
	// the server, so two brokerbench databases on one server would see each other's
	// tables.
	TablesScope string
	// Sizes are the database's measured size on disk after a load, for load --size and
	// the plan a load prints; nil when not measured, and the loader then takes another
	// engine's and says so: SizesLike's, else the first measured one's by name.
	Sizes *LoadSizes
	// SizesLike names the engine whose Sizes stand in for unmeasured ones: the
	// database whose storage of the schema is nearest this one's.
	SizesLike Name
}

// LoadSizes are a database's size on disk after a load, data and indexes together, as
// measured loads of the schema gave it (docs/workload.md §3.3): the fixed tables, the
// scaling tables per load unit, and the growing tables per load unit and trade day.
type LoadSizes struct {
	FixedBytes    int64 // fixed tables and brokerbench's own
	PerLUBytes    int64 // scaling tables, per 1,000 customers
	PerLUDayBytes int64 // growing tables, per 1,000 customers and trade day
	// LoadBytesPerSec is the load rate (bytes on disk per second of the whole load) of
	// the measured loads, for the time estimate; a faster machine loads faster.
	LoadBytesPerSec float64
}

// NextValueSQL renders the expression that takes sequence's next value on e.
func (e *Engine) NextValueSQL(sequence string) string {
	if e.NextValue != nil {
		return e.NextValue(sequence)
	}
	return "nextval('" + sequence + "')"
}

// TablesSQL selects what from information_schema.tables, for the tables of the
// session's own database (TablesScope) that meet cond ("" for all of them).
func (e *Engine) TablesSQL(what, cond string) string {
	var where []string
	for _, c := range []string{e.TablesScope, cond} {
		if c != "" {
			where = append(where, c)
		}
	}
	q := "SELECT " + what + " FROM information_schema.tables"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q
}

// CheckVersion refuses, in one line, a server older than the versions the engine
// supports.
func (e *Engine) CheckVersion(info ServerInfo) error {
	if e.MinVersion == 0 || info.Num == 0 || info.Num >= e.MinVersion {
		return nil
	}
	return fmt.Errorf("%s %s is older than the versions brokerbench supports (%s %s)", info.Product, info.Version, e.Product, e.Versions)
}

// RoutineDialect is what installing and calling server routines needs from a
// database, beside the routines' source.
type RoutineDialect struct {
	// Call renders a call of routine name with n parameters in portable placeholders
	// ($1...), which SQL then rewrites; its result is the routine's one value.
	Call func(name string, n int) string
	// CallRows renders the call of a routine that returns rows, as Call does; its
	// result is the routine's rows.
	CallRows func(name string, n int) string
	// HasMarker counts the routines' version table visible to the session (0 or 1).
	HasMarker string
	// LockInstall takes a lock held to the end of the install's transaction, so that
	// concurrent installs (the shards of one run) run one after the other.
	LockInstall string
	// UnlockInstall, when set, releases LockInstall's lock at the end of the install:
	// for a database whose DDL commits (MariaDB), whose lock is the session's.
	UnlockInstall string
	// DropRoutine (a format taking the routine's name) and DropMarker remove a routine
	// and the version table if they exist.
	DropRoutine, DropMarker string
}

// Placeholders lists n portable parameters, "$1, $2, ..., $n", for a routine's call
// (RoutineDialect.Call).
func Placeholders(n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = "$" + strconv.Itoa(i+1)
	}
	return strings.Join(p, ", ")
}

// RowFormat is a database's own bulk row encoding: the loader writes rows straight
// into it and streams Header, the encoded chunks, then Trailer as a Segment.Binary.
type RowFormat struct {
	// NewEncoder returns an encoder for rows of cols columns whose chunks are about
	// chunkBytes long.
	NewEncoder func(cols, chunkBytes int) RowEncoder
	// Header starts a stream and Trailer ends it.
	Header, Trailer []byte
}

var registry struct {
	mu      sync.RWMutex
	engines []*Engine // sorted by name
}

// Register makes e available to Open, Lookup and Classify. Sub-packages call it from
// init; a second engine under the same name is a programming error.
func Register(e *Engine) {
	if e == nil || e.Name == "" || e.Open == nil || e.DDL == nil || e.SQL == nil || e.Classify == nil || e.ClockSQL == "" {
		panic("database: Register of an incomplete engine")
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, x := range registry.engines {
		if x.Name == e.Name {
			panic(fmt.Sprintf("database: engine %q registered twice", e.Name))
		}
	}
	registry.engines = append(registry.engines, e)
	slices.SortFunc(registry.engines, func(a, b *Engine) int { return strings.Compare(string(a.Name), string(b.Name)) })
}

// Engines returns the registered engines by name.
func Engines() []*Engine {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	return slices.Clone(registry.engines)
}

// Names lists the registered engines for messages: "postgres or sqlserver".
func Names() string {
	var names []string
	for _, e := range Engines() {
		names = append(names, string(e.Name))
	}
	switch len(names) {
	case 0:
		return "(none linked in)"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Lookup returns the engine named n.
func Lookup(n Name) (*Engine, error) {
	for _, e := range Engines() {
		if e.Name == n {
			return e, nil
		}
	}
	return nil, fmt.Errorf("unknown database %q (want %s)", n, Names())
}

// Of returns the engine of an open pool.
func Of(db DB) (*Engine, error) { return Lookup(db.Name()) }

// For returns the engine a DSN selects by its scheme: the engine that lists the
// scheme, else the one that takes key=value DSNs (which then reports what is wrong
// with the DSN).
func For(dsn string) (*Engine, error) {
	scheme := ""
	if s := strings.TrimSpace(dsn); hasScheme(s) {
		scheme = strings.ToLower(s[:strings.Index(s, "://")])
	}
	var fallback *Engine
	for _, e := range Engines() {
		if scheme != "" && slices.Contains(e.Schemes, scheme) {
			return e, nil
		}
		if e.KeyValueDSN && fallback == nil {
			fallback = e
		}
	}
	if fallback == nil {
		return nil, InvalidDSN("no database engine takes this DSN (%s); linked in: %s", Redact(dsn), Names())
	}
	return fallback, nil
}

// Open connects to dsn with the engine its scheme selects: postgres:// or
// postgresql:// (or a libpq key=value string) for PostgreSQL, sqlserver:// for SQL
// Server. Errors name the target without its password.
func Open(ctx context.Context, dsn string, o Options) (DB, error) {
	e, err := For(dsn)
	if err != nil {
		return nil, err
	}
	return e.Open(ctx, dsn, o)
}

// Shown names dsn's server for people, password left out: the engine's own form where
// it has one, else the DSN with its password masked (Redact).
func Shown(dsn string) string {
	if e, err := For(dsn); err == nil && e.Shown != nil {
		if s := e.Shown(dsn); s != "" {
			return s
		}
	}
	return Redact(dsn)
}
