package database

import (
	"context"
	"io"

	"github.com/brokerbench/brokerbench/schema"
)

// Capabilities a resumable or sharded load needs (loader: segments, shards). Both
// engines implement them; the loader refuses a database that does not.

// Segment is one bulk operation of a load: rows of one table that commit together
// with the loader's record of them, so that after any interruption a segment is either
// in the database with its record or absent without it.
type Segment struct {
	Table   string
	Columns []string
	// Binary is a complete stream in the engine's RowFormat (header, tuples, trailer);
	// when nil the rows come from Rows (boxed values, the generic path).
	Binary io.Reader
	Rows   RowSource
	// Freeze asks for the database's load-time shortcut that is only allowed into a
	// table emptied in the same transaction (PostgreSQL: TRUNCATE, then COPY FREEZE).
	// The caller sets it only when the table holds no committed rows; databases
	// without such a shortcut ignore it.
	Freeze bool
	// Record runs in the segment's transaction after the rows are in, with their count.
	Record func(ctx context.Context, tx Tx, rows int64) error
}

// SegmentLoader loads one segment in one transaction: the bulk copy, then Record,
// then commit. It returns the rows copied.
type SegmentLoader interface {
	LoadSegment(ctx context.Context, s Segment) (int64, error)
}

// Locker takes a named exclusive lock held across statements and transactions
// (PostgreSQL: an advisory lock; SQL Server: sp_getapplock owned by the session), in
// the database the pool is connected to: the same name in another database is another
// lock. The shards of one load serialise schema creation and the post-load hand-over
// with Lock; a run marks the database as driven with TryLock, so a second run at the
// same time is told. The lock is the connection's: a client that dies releases it with
// its connection.
type Locker interface {
	// Lock waits for the lock named name (until ctx ends) and returns its release,
	// which never fails the caller (a broken connection released the lock already).
	Lock(ctx context.Context, name string) (unlock func(), err error)
	// TryLock takes the lock named name if no other session holds it, without
	// waiting: held is false (and unlock nil) when another one does.
	TryLock(ctx context.Context, name string) (unlock func(), held bool, err error)
}

// ObjectKind is the kind of a schema object a load builds after its data.
type ObjectKind uint8

const (
	ObjectIndex ObjectKind = iota + 1
	ObjectConstraint
	ObjectSequence
)

// SchemaObject is an index, constraint or sequence of the current schema. Valid is
// false for an index the server left unusable (PostgreSQL's indisvalid, SQL Server's
// is_disabled) and for a constraint not yet checked against the rows (NOT VALID,
// SQL Server's is_not_trusted).
type SchemaObject struct {
	Name  string
	Kind  ObjectKind
	Valid bool
}

// Cataloguer lists what a post-load already built, so a resumed one builds only the
// rest.
type Cataloguer interface {
	// CatalogSQL lists the current schema's objects as rows of (name, kind as
	// ObjectKind, valid); SchemaObjects runs it.
	CatalogSQL() string
	// DropIndex renders the statement that drops index name of table.
	DropIndex(table, name string) string
}

// SchemaObjects runs the cataloguer's CatalogSQL on db.
func SchemaObjects(ctx context.Context, db DB, c Cataloguer) ([]SchemaObject, error) {
	rows, err := db.Query(ctx, c.CatalogSQL())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SchemaObject
	for rows.Next() {
		var o SchemaObject
		var kind int32
		if err := rows.Scan(&o.Name, &kind, &o.Valid); err != nil {
			return nil, err
		}
		o.Kind = ObjectKind(kind)
		out = append(out, o)
	}
	return out, rows.Err()
}

// Freezer marks a table's rows frozen and all-visible after a load whose rows did not
// all arrive by the database's freezing bulk path (PostgreSQL: rows COPY FREEZE did
// not take, every segment after a table's first). Without it the first reads of a
// run would set hint bits and an autovacuum would write the tables during the run.
type Freezer interface {
	Freeze(ctx context.Context, table string) error
}

// SchemaDropper is what schema drop and load --drop need of a DDL: the drop of
// brokerbench's objects by names qualified with the schema its load marker lives in
// (never through the session's search path), without cascading into anything else,
// and the look for objects of others that depend on them, which the drop lists and
// refuses instead.
type SchemaDropper interface {
	// DropTableIn renders the drop of table t of schema sch; the server refuses it
	// while anything outside the tables dropped before it depends on it.
	DropTableIn(sch string, t schema.Table) string
	// DropSequenceIn renders the drop of sequence name of schema sch.
	DropSequenceIn(sch, name string) string
	// DependentsSQL selects, one text column a row, every object that is not among
	// names (brokerbench's tables and sequence in sch) but depends on one of them: a
	// view, another table's foreign key, a routine or default that names it. Each row
	// names the object, schema-qualified, and what it depends on.
	DependentsSQL(sch string, names []string) string
}
