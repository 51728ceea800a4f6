package database

import (
	"context"

	"github.com/brokerbench/brokerbench/schema"
)

// Optional capabilities: a database's DB or DDL implements them when it has the
// faster or richer path, and callers check with a type assertion.

// Maintainer runs the post-load statements with session settings that speed them up.
type Maintainer interface {
	// Maintenance runs stmt (an index build or a foreign-key check) in its own
	// transaction with maintenance_work_mem raised to memMB (index builds sort and key
	// checks hash in memory instead of spilling to disk) and without JIT.
	Maintenance(ctx context.Context, stmt string, memMB int) error
	// Analyze gathers planner statistics for table and sets its visibility map, so
	// later index-only scans need not visit the heap.
	Analyze(ctx context.Context, table string) error
}

// Sizer reports how much disk a table takes.
type Sizer interface {
	// TableBytes returns the table's heap (with TOAST) and its total with indexes.
	TableBytes(ctx context.Context, table string) (heap, total int64, err error)
}

// KeyDeferrer is implemented by DDL renderers whose bulk path is faster into a table
// without its primary key; the loader then adds the key with the secondary indexes.
type KeyDeferrer interface {
	CreateTableWithoutKey(t schema.Table) string
	AddPrimaryKey(t schema.Table) string
}

// KeyIndexer is implemented by deferring renderers that can build the primary key as
// an ordinary unique index, at the same time as the table's other indexes, and attach
// it as the key afterwards (instant). Without it the loader runs AddPrimaryKey and
// then the table's indexes in turn.
type KeyIndexer interface {
	PrimaryKeyIndex(t schema.Table) string
	AttachPrimaryKey(t schema.Table) string
}

// FKValidator is implemented by DDL renderers that can add foreign keys unchecked and
// check them later, which lets the checks run in parallel.
type FKValidator interface {
	ForeignKeysNotValid(t schema.Table) []string
	ValidateForeignKeys(t schema.Table) []string
}

// ServerDDLer is a DB whose server needs DDL other than its engine's Engine.DDL, as
// the engine found when it asked the server at connect (MySQL, which has no
// sequences, against MariaDB). DDLOf gives the DDL a pool's load runs.
type ServerDDLer interface {
	ServerDDL() DDL
}

// DDLOf returns the DDL for db's server: the pool's own (ServerDDLer) where it has
// one, else its engine's.
func DDLOf(db DB) (DDL, error) {
	if s, ok := db.(ServerDDLer); ok {
		if d := s.ServerDDL(); d != nil {
			return d, nil
		}
	}
	e, err := Of(db)
	if err != nil {
		return nil, err
	}
	return e.DDL, nil
}

// IDAllocator hands out a sequence's values on a server without sequences (MySQL).
// Its values are taken outside the transaction that uses them, as a sequence's are:
// a counter row updated inside the transaction would hold its lock to the commit and
// make every Trade-Order wait for the one before.
type IDAllocator interface {
	NextID(ctx context.Context, sequence string) (int64, error)
}

// IDAllocating is a DB that may hand out sequence values itself: IDAllocator returns
// nil when its server has sequences, which Engine.NextValue's SQL then reads.
type IDAllocating interface {
	IDAllocator() IDAllocator
}

// IDsOf returns db's IDAllocator, or nil when the sequence's values are to be read
// with Engine.NextValue's SQL in the transaction.
func IDsOf(db DB) IDAllocator {
	if a, ok := db.(IDAllocating); ok {
		return a.IDAllocator()
	}
	return nil
}
