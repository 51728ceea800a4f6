package sqlserver

import (
	"errors"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/database"
)

// The error numbers brokerbench's procedures throw (txn/routines/sqlserver.sql): the
// transaction's intended rollback, and a failed output check of frame n as
// msCheckBase+n. THROW takes numbers from 50000 up, which SQL Server leaves to
// applications, so no server error is mistaken for them.
const (
	msIntendedRollback = 50001
	msCheckBase        = 50010
)

// routineCheck recognises a failed output check thrown by a procedure by its error
// number; the frame is the number's last digit and what failed the error's message.
func routineCheck(err error) (int, string, bool) {
	var e mssql.Error
	if !errors.As(err, &e) {
		return 0, "", false
	}
	for _, x := range append([]mssql.Error{e}, e.All...) {
		if f := x.Number - msCheckBase; f >= 1 && f <= 9 {
			return int(f), x.Message, true
		}
	}
	return 0, "", false
}

// routineDialect installs and calls brokerbench's T-SQL procedures: a call is an
// EXEC whose one result set is the procedure's JSON document or its rows.
var routineDialect = &database.RoutineDialect{
	Call:     execOf,
	CallRows: execOf,
	HasMarker: `SELECT COUNT(*) FROM sys.tables
WHERE name = 'bb_routines' AND schema_id = SCHEMA_ID()`,
	LockInstall: "EXEC sp_getapplock @Resource = 'brokerbench routines', @LockMode = 'Exclusive', @LockOwner = 'Transaction', @LockTimeout = -1",
	DropRoutine: "DROP PROCEDURE IF EXISTS %s",
	DropMarker:  "DROP TABLE IF EXISTS bb_routines",
}

// execOf is the procedure call EXEC name $1, ..., $n.
func execOf(name string, n int) string { return "EXEC " + name + " " + database.Placeholders(n) }
