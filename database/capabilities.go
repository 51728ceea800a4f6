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
