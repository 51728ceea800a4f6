package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/brokerbench/brokerbench/database"
)

// The codes brokerbench's server routines raise (txn/routines/postgres.sql): the
// transaction's intended rollback, and a failed output check of frame n as BBC0n.
// Class "BB" is not one PostgreSQL uses, so no server error is mistaken for them.
const (
	codeIntendedRollback = "BBR01"
	codeCheckPrefix      = "BBC0"
)

// routineCheck recognises a failed output check raised by a server routine by its
// SQLSTATE; the frame is the code's last digit and what failed the error's message.
func routineCheck(err error) (int, string, bool) {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || len(pgErr.Code) != 5 || pgErr.Code[:4] != codeCheckPrefix {
		return 0, "", false
	}
	f := pgErr.Code[4]
	if f < '1' || f > '9' {
		return 0, "", false
	}
	return int(f - '0'), pgErr.Message, true
}

// routineDialect installs and calls brokerbench's PL/pgSQL functions: a call is a
// SELECT of the function, its JSON result one value, or a SELECT from a set-returning
// function for its rows.
var routineDialect = &database.RoutineDialect{
	Call:     func(name string, n int) string { return "SELECT " + callOf(name, n) },
	CallRows: func(name string, n int) string { return "SELECT * FROM " + callOf(name, n) },
	HasMarker: `SELECT COUNT(*) FROM information_schema.tables
WHERE table_name = 'bb_routines' AND table_schema = current_schema()`,
	LockInstall: "SELECT pg_advisory_xact_lock(hashtext('brokerbench routines'))",
	DropRoutine: "DROP FUNCTION IF EXISTS %s",
	DropMarker:  "DROP TABLE IF EXISTS bb_routines",
}

// callOf is the function call name($1, ..., $n).
func callOf(name string, n int) string { return name + "(" + database.Placeholders(n) + ")" }
