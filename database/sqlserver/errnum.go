package sqlserver

import (
	"errors"
	"slices"
	"strings"

	mssql "github.com/microsoft/go-mssqldb"
)

// SQL Server error numbers (sys.messages) that say the server cannot or will not
// show something, as opposed to a failure.
var (
	// permissionNumbers: a permission the login lacks.
	permissionNumbers = []int32{
		229, // "The %ls permission was denied on the object ..."
		262, // "%ls permission denied in database ..."
		297, // "The user does not have permission to perform this action."
		300, // "VIEW SERVER STATE permission was denied on object 'server' ..."
		916, // "The server principal ... is not able to access the database ... under the current security context."
	}
	// missingNumbers: an object, column or function this server does not have.
	missingNumbers = []int32{
		195,  // "'%.*ls' is not a recognized built-in function name."
		207,  // "Invalid column name ..."
		208,  // "Invalid object name ..."
		4121, // "Cannot find either column ... or the user-defined function or aggregate ..."
	}
)

// babelfishUnmapped is the number Babelfish for PostgreSQL (a T-SQL endpoint on
// PostgreSQL) sends for every PostgreSQL error it has no SQL Server number for
// (ERRCODE_PLTSQL_ERROR_NOT_MAPPED in its TDS extension). A missing relation, a
// permission refused, a lock timeout and a serialization failure all arrive under
// it, with state 1 and severity 16: nothing in the error token but its message
// tells them apart. Microsoft's system messages are numbered below 50000, so the
// number is Babelfish's alone.
const babelfishUnmapped = 33557097

// condition is what an error means to brokerbench, whichever spelling the server
// used for it.
type condition uint8

const (
	condNone condition = iota
	condMissing
	condPermission
	condLockTimeout
	condSerialization
)

// babelfishMeanings reads the PostgreSQL meaning of an unmapped Babelfish error.
// This is the one place brokerbench reads an error's message, and only for
// babelfishUnmapped: the PostgreSQL SQLSTATE that would say the same is not sent
// (see babelfishUnmapped), and these are PostgreSQL's own fixed message texts
// (errmsg in its source; they need the server's lc_messages in English, its
// default). An error whose message matches none of them keeps its number's
// meaning: none, hence Fatal.
var babelfishMeanings = []struct {
	prefix, contains string
	cond             condition
}{
	// 40001 serialization_failure: "could not serialize access due to concurrent
	// update" (REPEATABLE READ and SERIALIZABLE run as PostgreSQL's snapshots there).
	{"could not serialize access", "", condSerialization},
	// 55P03 lock_not_available: SET LOCK_TIMEOUT runs as PostgreSQL's lock_timeout.
	{"canceling statement due to lock timeout", "", condLockTimeout},
	{"could not obtain lock", "", condLockTimeout},
	// 42P01 undefined_table, 42703 undefined_column, 42883 undefined_function,
	// 3F000 invalid_schema_name: `relation "sys.allocation_units" does not exist`.
	{"relation ", " does not exist", condMissing},
	{"column ", " does not exist", condMissing},
	{"function ", " does not exist", condMissing},
	{"schema ", " does not exist", condMissing},
	// 42501 insufficient_privilege: "permission denied for table ...".
	{"permission denied", "", condPermission},
}

// conditionOf tells what a go-mssqldb error means: by Microsoft's numbers for any
// error of the batch (mssql.Error.All: the decisive one need not be the last), and
// for Babelfish's unmapped number by the PostgreSQL meaning of its message.
func conditionOf(err error) condition {
	var e mssql.Error
	if !errors.As(err, &e) {
		return condNone
	}
	chain := append([]mssql.Error{e}, e.All...)
	for _, x := range chain {
		switch {
		case slices.Contains(missingNumbers, x.Number):
			return condMissing
		case slices.Contains(permissionNumbers, x.Number):
			return condPermission
		case x.Number == msLockTimeout:
			return condLockTimeout
		case x.Number == babelfishUnmapped:
			if c := babelfishCondition(x.Message); c != condNone {
				return c
			}
		}
	}
	return condNone
}

func babelfishCondition(msg string) condition {
	for _, m := range babelfishMeanings {
		if strings.HasPrefix(msg, m.prefix) && strings.Contains(msg[len(m.prefix):], m.contains) {
			return m.cond
		}
	}
	return condNone
}

func permissionDenied(err error) bool { return conditionOf(err) == condPermission }
func missingObject(err error) bool    { return conditionOf(err) == condMissing }

// Unavailable reports whether err says the server lacks an object (a view, a column,
// a function) or refuses the login one: something optional brokerbench then does
// without. Tests use it to skip where a server has no view they need.
func Unavailable(err error) bool {
	c := conditionOf(err)
	return c == condMissing || c == condPermission
}

// Reason names what err means in the words of docs/sqlserver.md §4 ("lock timeout",
// "serialization failure") or "" : tests assert the meaning whichever number the
// server gave it.
func Reason(err error) string {
	switch conditionOf(err) {
	case condMissing:
		return "missing object"
	case condPermission:
		return "permission denied"
	case condLockTimeout:
		return "lock timeout"
	case condSerialization:
		return "serialization failure"
	}
	return ""
}
