package sqlserver

import (
	"database/sql"
	"database/sql/driver"
	"errors"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/database"
)

// SQL Server error numbers the load driver reacts to (sys.messages).
const (
	msDeadlockVictim   = 1205 // chosen as deadlock victim; the server rolled back
	msLockTimeout      = 1222 // lock request time-out; only the statement was cancelled
	msSnapshotConflict = 3960 // snapshot isolation update conflict; rolled back
	msSnapshotDDL      = 3961 // snapshot isolation saw concurrent DDL on the object
	msTransportRecv    = 10054
	msTransportSend    = 10053
	msNoProcessOnPipe  = 233
	msShutdown         = 6005 // SHUTDOWN is in progress
	msDBUnavailable    = 40613
	msServiceBusy      = 40501
	// Severity 20 and above ends the connection (sys.messages "fatal" classes).
	msFatalSeverity = 20
)

// classify recognises go-mssqldb errors by type and error number, never by message
// text, save Babelfish's one unmapped number (errnum.go). ok is false for errors that did not come from go-mssqldb or database/sql's
// pool, so the shared rules get them.
func classify(err error) (database.Class, bool) {
	var fatal mssql.ServerError
	if errors.As(err, &fatal) {
		// A fatal server error severed the connection.
		return database.Connection, true
	}
	var se mssql.StreamError
	if errors.As(err, &se) {
		return database.Connection, true
	}
	var e mssql.Error
	if errors.As(err, &e) {
		return classifyMSSQLNumber(e), true
	}
	// database/sql's own: the pool found the connection dead. (Network errors are
	// left to database.Classify, which treats them the same for every engine.)
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return database.Connection, true
	}
	return database.Fatal, false
}

func classifyMSSQLNumber(e mssql.Error) database.Class {
	// Any error in the chain decides: a deadlock can arrive after an informational
	// message, and All holds every error of the batch.
	chain := e.All
	if len(chain) == 0 {
		chain = []mssql.Error{e}
	}
	for _, x := range chain {
		switch x.Number {
		case msDeadlockVictim, msLockTimeout, msSnapshotConflict, msSnapshotDDL:
			return database.Retry
		case msIntendedRollback: // a procedure's intended rollback (routines.go)
			return database.Rollback
		}
	}
	// The same conditions spelled by a T-SQL endpoint that is not Microsoft's
	// (Babelfish's unmapped number, errnum.go).
	switch conditionOf(e) {
	case condLockTimeout, condSerialization:
		return database.Retry
	}
	for _, x := range chain {
		switch x.Number {
		case msTransportRecv, msTransportSend, msNoProcessOnPipe, msShutdown, msDBUnavailable, msServiceBusy:
			return database.Connection
		}
		if x.Class >= msFatalSeverity {
			return database.Connection
		}
	}
	return database.Fatal
}
