package mysql

import (
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"slices"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// Server error numbers the load driver reacts to (MySQL's and MariaDB's error
// references; both servers use the same numbers for these).
const (
	erLockWaitTimeout = 1205 // innodb_lock_wait_timeout: only the statement was rolled back
	erDeadlock        = 1213 // InnoDB chose this transaction as the victim and rolled it back
	erCheckread       = 1020 // "Record has changed since last read" (MariaDB's innodb_snapshot_isolation)
	erTableDefChanged = 1412 // the snapshot predates a change of the table's definition
	erDupEntry        = 1062 // duplicate key: a bug in the workload, fatal
	erConCount        = 1040 // too many connections
	erServerShutdown  = 1053
	erConnKilled      = 1927 // MariaDB: the connection was killed
	erQueryKilled     = 1317 // the statement was interrupted (KILL QUERY, shutdown)
	crServerGone      = 2006 // client-side: the server has gone away
	crServerLost      = 2013 // client-side: lost connection during the query
)

var (
	retryNumbers      = []uint16{erLockWaitTimeout, erDeadlock, erCheckread, erTableDefChanged}
	connectionNumbers = []uint16{erConCount, erServerShutdown, erConnKilled, crServerGone, crServerLost}
)

// classify sorts driver errors by error number and by the driver's own error values,
// never by message text. ok is false for errors the driver did not raise.
func classify(err error) (database.Class, bool) {
	var e *driver.MySQLError
	if errors.As(err, &e) {
		switch {
		case sqlState(err) == stateIntendedRollback: // a procedure's intended rollback (routines.go)
			return database.Rollback, true
		case slices.Contains(retryNumbers, e.Number):
			return database.Retry, true
		case slices.Contains(connectionNumbers, e.Number):
			return database.Connection, true
		}
		return database.Fatal, true
	}
	// The driver's own: the connection broke under it, or the pool found it dead.
	if errors.Is(err, driver.ErrInvalidConn) || errors.Is(err, driver.ErrMalformPkt) || errors.Is(err, driver.ErrPktSync) ||
		errors.Is(err, sqldriver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return database.Connection, true
	}
	return database.Fatal, false
}

// connKind sorts a connection failure by number: the server refused the session
// (too many connections) or ended one it had (shutdown, killed, gone away); the
// driver's own ErrInvalidConn is a connection that broke under it.
func connKind(err error) (database.ConnKind, bool) {
	switch ErrorNumber(err) {
	case erConCount:
		return database.ConnRefused, true
	case erServerShutdown, erConnKilled, crServerGone, crServerLost:
		return database.ConnReset, true
	}
	if errors.Is(err, driver.ErrInvalidConn) || errors.Is(err, sqldriver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return database.ConnReset, true
	}
	return database.ConnOther, false
}

// Reason names what err means to the load driver ("deadlock", "lock wait timeout",
// "duplicate key") or "": tests assert the meaning, not a message.
func Reason(err error) string {
	switch ErrorNumber(err) {
	case erDeadlock:
		return "deadlock"
	case erLockWaitTimeout:
		return "lock wait timeout"
	case erDupEntry:
		return "duplicate key"
	}
	return ""
}

// Errors that say the server does not offer something optional (a view, a variable)
// or refuses it to the login.
var (
	missingNumbers    = []uint16{1146 /* no such table */, 1054 /* unknown column */, 1193 /* unknown system variable */, 1109 /* unknown table in information_schema */}
	permissionNumbers = []uint16{1142 /* command denied for table */, 1227 /* needs a privilege */, 1044 /* access denied to database */}
)

// unavailable marks err database.ErrUnavailable (and ErrPermission when the login
// lacks a grant) when its number says so; what names the object for the message.
func unavailable(err error, what string) error {
	n := ErrorNumber(err)
	switch {
	case err == nil:
		return nil
	case slices.Contains(permissionNumbers, n):
		return &markedError{err: err, what: what + " (not granted to this login)", marks: []error{database.ErrPermission, database.ErrUnavailable}}
	case slices.Contains(missingNumbers, n):
		return &markedError{err: err, what: what + " (not on this server)", marks: []error{database.ErrUnavailable}}
	}
	return err
}

// markedError is a driver error that also matches the marks with errors.Is.
type markedError struct {
	err   error
	what  string
	marks []error
}

func (e *markedError) Error() string   { return e.what + ": " + e.err.Error() }
func (e *markedError) Unwrap() []error { return append([]error{e.err}, e.marks...) }
