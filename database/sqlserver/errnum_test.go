package sqlserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/database"
)

// bfErr is an error as Babelfish for PostgreSQL sends one it has no SQL Server number
// for: its unmapped number, state 1, severity 16, PostgreSQL's message.
func bfErr(msg string) mssql.Error {
	return mssql.Error{Number: babelfishUnmapped, State: 1, Class: 16, Message: msg, ServerName: "BABELFISH"}
}

// Each tolerated or retried condition in both spellings: Microsoft's number, and
// Babelfish's unmapped number with PostgreSQL's message.
func TestConditionBothSpellings(t *testing.T) {
	for _, c := range []struct {
		err    error
		reason string
	}{
		{msErr(208, 16), "missing object"},
		{bfErr(`relation "sys.allocation_units" does not exist`), "missing object"},
		{msErr(207, 16), "missing object"},
		{bfErr(`column "is_accelerated_database_recovery_on" does not exist`), "missing object"},
		{bfErr(`function sys.dm_io_virtual_file_stats(smallint, unknown) does not exist`), "missing object"},
		{msErr(300, 14), "permission denied"},
		{bfErr("permission denied for table allocation_units"), "permission denied"},
		{msErr(1222, 16), "lock timeout"},
		{bfErr("canceling statement due to lock timeout"), "lock timeout"},
		{bfErr("could not serialize access due to concurrent update"), "serialization failure"},
		// Found anywhere in the batch, behind a wrapper.
		{fmt.Errorf("frame 2: %w", mssql.Error{Number: 3621, Class: 16, All: []mssql.Error{bfErr("could not serialize access due to read/write dependencies among transactions"), msErr(3621, 16)}}), "serialization failure"},
		// Babelfish's other unmapped errors, and PostgreSQL's wording under another
		// number, mean nothing special.
		{bfErr(`duplicate key value violates unique constraint "pk_trade"`), ""},
		{bfErr("division by zero"), ""},
		{mssql.Error{Number: 50000, Class: 16, Message: `relation "x" does not exist`}, ""},
		{msErr(102, 15), ""},
		{errors.New(`relation "x" does not exist`), ""},
	} {
		if got := Reason(c.err); got != c.reason {
			t.Errorf("Reason(%v) = %q, want %q", c.err, got, c.reason)
		}
	}
}

func TestClassifyBabelfish(t *testing.T) {
	for _, c := range []struct {
		err  error
		want database.Class
	}{
		{bfErr("could not serialize access due to concurrent update"), database.Retry},
		{bfErr("canceling statement due to lock timeout"), database.Retry},
		{mssql.Error{Number: 1205, Class: 13, Message: "deadlock detected", ServerName: "BABELFISH"}, database.Retry}, // Babelfish maps 40P01 itself
		{bfErr(`relation "sys.allocation_units" does not exist`), database.Fatal},
		{bfErr("division by zero"), database.Fatal},
	} {
		if got := database.Classify(c.err); got != c.want {
			t.Errorf("Classify(%v) = %s, want %s", c.err, got, c.want)
		}
	}
}

// unavailable marks a missing view ErrUnavailable and a refused one also
// ErrPermission, naming the view; anything else passes unchanged.
func TestUnavailable(t *testing.T) {
	for _, e := range []error{msErr(208, 16), bfErr(`relation "sys.allocation_units" does not exist`)} {
		err := unavailable(e, "sys.allocation_units")
		if !errors.Is(err, database.ErrUnavailable) || errors.Is(err, database.ErrPermission) {
			t.Errorf("%v: marks wrong: %v", e, err)
		}
		if !strings.Contains(err.Error(), "sys.allocation_units does not exist on this server") || ErrorNumber(err) != ErrorNumber(e) {
			t.Errorf("%v: %v", e, err)
		}
	}
	for _, e := range []error{msErr(229, 14), bfErr("permission denied for table allocation_units")} {
		err := unavailable(e, "sys.allocation_units")
		if !errors.Is(err, database.ErrUnavailable) || !errors.Is(err, database.ErrPermission) || !strings.Contains(err.Error(), "may not read sys.allocation_units") {
			t.Errorf("%v: %v", e, err)
		}
	}
	for _, e := range []error{msErr(10054, 20), bfErr("division by zero"), errors.New("EOF")} {
		if err := unavailable(e, "sys.allocation_units"); err.Error() != e.Error() || errors.Is(err, database.ErrUnavailable) {
			t.Errorf("%v changed to %v", e, err)
		}
	}
	if unavailable(nil, "x") != nil {
		t.Error("nil not kept")
	}
}
