package database_test

import (
	"context"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/database/sqlserver"
)

// A DSN's scheme picks the engine; what is not a URL (libpq's key=value form), and a
// scheme nobody claims, goes to the engine that takes key=value DSNs, PostgreSQL,
// whose parser then says what is wrong.
func TestForPicksTheEngineByScheme(t *testing.T) {
	for in, want := range map[string]*database.Engine{
		"postgres://x/y": postgres.Engine, "postgresql://x/y": postgres.Engine, "host=x": postgres.Engine, "": postgres.Engine,
		"mysql://x/y": postgres.Engine, "sqlserver://sa@x?database=y": sqlserver.Engine, "SQLSERVER://x": sqlserver.Engine,
	} {
		got, err := database.For(in)
		if err != nil || got != want {
			t.Errorf("For(%q) = %v, %v; want %s", in, got, err, want.Name)
		}
	}
}

func TestRegistry(t *testing.T) {
	if got := database.Names(); got != "postgres or sqlserver" {
		t.Errorf("Names() = %q", got)
	}
	for _, e := range []*database.Engine{postgres.Engine, sqlserver.Engine} {
		got, err := database.Lookup(e.Name)
		if err != nil || got != e {
			t.Errorf("Lookup(%s) = %v, %v", e.Name, got, err)
		}
	}
	if _, err := database.Lookup("oracle"); err == nil || !strings.Contains(err.Error(), "postgres or sqlserver") {
		t.Errorf("Lookup of an unknown engine: %v, want an error naming the known ones", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a second engine named postgres did not panic")
		}
	}()
	dup := *postgres.Engine
	database.Register(&dup)
}

// Each engine's Open returns a nil DB interface, not a typed nil, on failure: callers
// compare with nil.
func TestOpenFailureIsANilDB(t *testing.T) {
	for _, dsn := range []string{"postgres://u:pw@127.0.0.1:1/d?connect_timeout=1", "sqlserver://u:pw@[::1"} {
		db, err := database.Open(context.Background(), dsn, database.Options{Timeout: 1})
		if err == nil || db != nil {
			t.Errorf("Open(%s) = %v, %v; want nil and an error", database.Redact(dsn), db, err)
		}
	}
}

// The clock query is each engine's own: it must read the clock as it runs, not the
// transaction's start (PostgreSQL's now() is the latter), and in UTC where the type
// has no zone (SQL Server's datetime2). Golden: a change here changes every sharded
// run's clock offsets.
func TestClockSQL(t *testing.T) {
	for e, want := range map[*database.Engine]string{
		postgres.Engine:  "SELECT clock_timestamp()",
		sqlserver.Engine: "SELECT SYSUTCDATETIME()",
	} {
		if e.ClockSQL != want {
			t.Errorf("%s: ClockSQL = %q, want %q", e.Name, e.ClockSQL, want)
		}
	}
}

// An engine with a MinVersion refuses an older server in one line naming both
// versions; a supported one, an engine without MinVersion and a server that gave no
// comparable number pass.
func TestCheckVersion(t *testing.T) {
	old := database.ServerInfo{Product: "PostgreSQL", Version: "12.22", Num: 120022}
	err := postgres.Engine.CheckVersion(old)
	if err == nil || err.Error() != "PostgreSQL 12.22 is older than the versions brokerbench supports (PostgreSQL 13 or newer)" {
		t.Errorf("PostgreSQL 12.22: %v", err)
	}
	for _, ok := range []database.ServerInfo{{Product: "PostgreSQL", Version: "13.0", Num: 130000}, {Product: "PostgreSQL", Version: "18.1", Num: 180001}, {Product: "PostgreSQL"}} {
		if err := postgres.Engine.CheckVersion(ok); err != nil {
			t.Errorf("%s: %v", ok.Version, err)
		}
	}
	if err := sqlserver.Engine.CheckVersion(database.ServerInfo{Product: "SQL Server", Version: "14.0.1000.169", Num: 1401000}); err != nil {
		t.Errorf("SQL Server has no MinVersion (it notes an old server), got %v", err)
	}
}

// TestTablesSQL: the loader's look at information_schema.tables keeps to the session's
// own database where the view lists the whole server (MySQL), and stays the plain
// query where it lists the connection's database alone (PostgreSQL, SQL Server).
func TestTablesSQL(t *testing.T) {
	myScope := &database.Engine{Name: "scoped", TablesScope: "table_schema = DATABASE()"} // MySQL's (database/mysql's TestTablesScope)
	for _, c := range []struct {
		e          *database.Engine
		what, cond string
		want       string
	}{
		{postgres.Engine, "table_name", "", "SELECT table_name FROM information_schema.tables"},
		{sqlserver.Engine, "COUNT(*)", "table_name = 'bb_load'", "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'bb_load'"},
		{myScope, "table_name", "", "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"},
		{myScope, "COUNT(*)", "table_name = 'bb_load'", "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'bb_load'"},
	} {
		if got := c.e.TablesSQL(c.what, c.cond); got != c.want {
			t.Errorf("%s: %q, want %q", c.e.Name, got, c.want)
		}
	}
}
