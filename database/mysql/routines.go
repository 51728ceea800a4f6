package mysql

import (
	"encoding/json"
	"errors"
	"reflect"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// The SQLSTATEs brokerbench's stored procedures signal (txn/routines/mysql.sql): the
// transaction's intended rollback, and a failed output check of frame n as BBC0n.
// Class "BB" is not one MariaDB uses, so no server error is mistaken for them; the
// error number of both is MariaDB's 1644 for any SIGNAL, so the state tells them.
const (
	stateIntendedRollback = "BBR01"
	stateCheckPrefix      = "BBC0"
)

// sqlState returns the SQLSTATE of a server error, or "".
func sqlState(err error) string {
	var e *driver.MySQLError
	if errors.As(err, &e) && e.SQLState != [5]byte{} {
		return string(e.SQLState[:])
	}
	return ""
}

// routineCheck recognises a failed output check signalled by a procedure by its
// SQLSTATE; the frame is the state's last digit and what failed the error's message.
func routineCheck(err error) (int, string, bool) {
	s := sqlState(err)
	if len(s) != 5 || s[:4] != stateCheckPrefix || s[4] < '1' || s[4] > '9' {
		return 0, "", false
	}
	var e *driver.MySQLError
	errors.As(err, &e)
	return int(s[4] - '0'), e.Message, true
}

// routineDialect installs and calls brokerbench's stored procedures: a call is a CALL
// whose one result set is the procedure's JSON document or its rows. Each CREATE
// commits on MariaDB, so concurrent installs (the shards of one run) serialise on a
// named lock of the session, not on a transaction's: it is held until UnlockInstall
// (or the session's end), per database, since the lock's name space is the server's.
// information_schema spans every database of the server: the marker is looked up in
// the session's own.
var routineDialect = &database.RoutineDialect{
	Call:     callOf,
	CallRows: callOf,
	HasMarker: `SELECT COUNT(*) FROM information_schema.tables
WHERE table_name = 'bb_routines' AND table_schema = DATABASE()`,
	LockInstall:   "SELECT GET_LOCK(CONCAT('brokerbench routines ', DATABASE()), 3600)",
	UnlockInstall: "SELECT RELEASE_LOCK(CONCAT('brokerbench routines ', DATABASE()))",
	DropRoutine:   "DROP PROCEDURE IF EXISTS %s",
	DropMarker:    "DROP TABLE IF EXISTS bb_routines",
}

// callOf is the procedure call CALL name($1, ..., $n).
func callOf(name string, n int) string { return "CALL " + name + "(" + database.Placeholders(n) + ")" }

// listArg passes a list (the ids and names a server routine takes, docs/workload.md
// §13) as a JSON array, which the procedure reads with JSON_TABLE in the list's
// order: MariaDB has no array parameters. A nil list goes as an empty one. ok is
// false for anything that is not a list ([]byte is a value).
func listArg(a any) (string, bool) {
	rv := reflect.ValueOf(a)
	if rv.Kind() != reflect.Slice || rv.Type().Elem().Kind() == reflect.Uint8 {
		return "", false
	}
	if rv.IsNil() {
		return "[]", true
	}
	b, err := json.Marshal(a)
	if err != nil {
		return "", false // the driver reports the unsupported type with context
	}
	return string(b), true
}
