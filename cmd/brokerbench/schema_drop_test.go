package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
)

// dropArgs are the two commands that drop the schema; load's scale is the smallest
// the tests load, should it ever get past its checks.
var dropArgs = map[string][]string{
	"schema drop": {"schema", "drop"},
	"load --drop": {"load", "--drop", "--customers", "1000", "--trade-days", "5"},
}

// dropCommand runs one of dropArgs on dsn.
func dropCommand(name, dsn string) (code int, stdout, stderr string) {
	return runMain(append(append([]string{}, dropArgs[name]...), "--db", dsn)...)
}

// A user's table named like one of brokerbench's, in a database brokerbench never
// loaded: both drops refuse for want of the load marker and the table keeps its rows.
func TestDropRefusesUnloadedDatabase(t *testing.T) {
	t.Parallel()
	dsn := testpg.NewDB(t)
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	execEach(t, db, "CREATE TABLE address (ad_id bigint PRIMARY KEY, street text)",
		"INSERT INTO address VALUES (1, 'Main Street 1'), (2, 'Side Street 2'), (3, 'Back Lane 3')")
	for _, name := range []string{"schema drop", "load --drop"} {
		code, stdout, stderr := dropCommand(name, dsn)
		if code != exitRuntime {
			t.Errorf("%s on an unloaded database: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		t.Logf("%s: %s", name, stderr)
		if !strings.Contains(stderr, "holds no brokerbench load (no marker); it drops only what it loaded") {
			t.Errorf("%s did not name the missing marker:\n%s", name, stderr)
		}
		if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
			t.Errorf("%s refused in %d lines, not one:\n%s", name, n+1, stderr)
		}
		if got := testpg.QueryInt(t, dsn, "SELECT count(*) FROM address WHERE street LIKE '% %'"); got != 3 {
			t.Errorf("after %s the user's address holds %d rows of 3", name, got)
		}
	}
}

// A user's schema first on the search path, with a table named like one of
// brokerbench's: schema drop removes brokerbench's tables from the schema its load
// marker is in and leaves the user's table and rows alone.
func TestSchemaDropNamesTheMarkersSchema(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	execEach(t, db, "CREATE SCHEMA postgres",
		"CREATE TABLE postgres.trade (t_id bigint PRIMARY KEY, note text)",
		"INSERT INTO postgres.trade VALUES (1, 'mine'), (2, 'mine too')",
		"DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET search_path = postgres, public', current_database()); END $$")
	code, stdout, stderr := runMain("schema", "drop", "--db", dsn)
	if code != exitOK {
		t.Fatalf("schema drop: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got := testpg.QueryInt(t, dsn, "SELECT count(*) FROM postgres.trade WHERE note LIKE 'mine%'"); got != 2 {
		t.Errorf("the user's postgres.trade holds %d rows of 2", got)
	}
	if got := testpg.QueryInt(t, dsn, "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S')"); got != 0 {
		t.Errorf("%d of brokerbench's tables and sequences are left in public", got)
	}
}

// A user's view on customer and a foreign key of the user's table referencing it:
// both drops refuse and name them, and nothing is dropped.
func TestDropRefusesDependents(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	execEach(t, db, "CREATE VIEW my_customers AS SELECT c_id, c_l_name FROM customer",
		"CREATE TABLE my_notes (n_c_id bigint CONSTRAINT my_notes_customer REFERENCES customer (c_id), note text)",
		"INSERT INTO my_notes SELECT c_id, 'noted' FROM customer ORDER BY c_id LIMIT 5")
	customers := testpg.QueryInt(t, dsn, "SELECT count(*) FROM customer")
	tables := testpg.QueryInt(t, dsn, "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'")
	for _, name := range []string{"schema drop", "load --drop"} {
		code, stdout, stderr := dropCommand(name, dsn)
		if code != exitRuntime {
			t.Errorf("%s with dependents: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		t.Logf("%s: %s", name, stderr)
		for _, want := range []string{"view public.my_customers (on public.customer)", "my_notes_customer on public.my_notes (on public.customer)"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s did not name %q:\n%s", name, want, stderr)
			}
		}
		if got := testpg.QueryInt(t, dsn, "SELECT count(*) FROM my_customers"); got != customers {
			t.Errorf("after %s the view shows %d customers of %d", name, got, customers)
		}
		if got := testpg.QueryInt(t, dsn, "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'"); got != tables {
			t.Errorf("after %s public holds %d tables of %d", name, got, tables)
		}
	}
}

// execEach runs each statement on db, failing the test at the first error.
func execEach(t *testing.T, db database.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// The drops' rules on MariaDB: a database without the marker is refused; a user's view
// and foreign key on customer are named and refused, and once the user removes them
// the drop removes brokerbench's tables and leaves the user's own. A run's holder row
// names the process to a second run there too.
func TestDropOnMariaDB(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	empty := testmdb.DSN(t)
	execEach(t, testmdb.Open(t, empty, database.Options{MaxConns: 1}),
		"CREATE TABLE address (ad_id bigint PRIMARY KEY, street varchar(40))",
		"INSERT INTO address VALUES (1, 'Main Street 1'), (2, 'Side Street 2')")
	if code, _, stderr := runMain("schema", "drop", "--db", empty); code != exitRuntime || !strings.Contains(stderr, "holds no brokerbench load (no marker)") {
		t.Errorf("schema drop on an unloaded MariaDB database: exit %d\n%s", code, stderr)
	}
	if got := mariaCount(t, empty, "SELECT count(*) FROM address"); got != 2 {
		t.Errorf("the user's address holds %d rows of 2", got)
	}

	dsn := testdb.MariaDBLoaded(t)
	db := testmdb.Open(t, dsn, database.Options{MaxConns: 3})
	var name string
	if err := db.QueryRow(ctx, "SELECT DATABASE()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	holdRunTwice(t, db)
	execEach(t, db, "CREATE VIEW my_customers AS SELECT c_id, c_l_name FROM customer",
		"CREATE TABLE my_notes (n_c_id bigint NOT NULL, note varchar(20), CONSTRAINT my_notes_customer FOREIGN KEY (n_c_id) REFERENCES customer (c_id))",
		"INSERT INTO my_notes SELECT c_id, 'noted' FROM customer ORDER BY c_id LIMIT 5")
	for _, cmd := range []string{"schema drop", "load --drop"} {
		code, _, stderr := dropCommand(cmd, dsn)
		if code != exitRuntime {
			t.Errorf("%s with dependents: exit %d\n%s", cmd, code, stderr)
		}
		for _, want := range []string{"view " + name + ".my_customers (on " + name + ".customer)",
			"foreign key my_notes_customer of " + name + ".my_notes (on " + name + ".customer)"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s did not name %q:\n%s", cmd, want, stderr)
			}
		}
	}
	if got := mariaCount(t, dsn, "SELECT count(*) FROM my_customers"); got == 0 {
		t.Error("the user's view shows no customers after the refused drops")
	}
	execEach(t, db, "DROP VIEW my_customers", "ALTER TABLE my_notes DROP FOREIGN KEY my_notes_customer")
	if code, stdout, stderr := runMain("schema", "drop", "--db", dsn); code != exitOK {
		t.Fatalf("schema drop without dependents: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got := mariaCount(t, dsn, "SELECT count(*) FROM my_notes"); got != 5 {
		t.Errorf("the user's my_notes holds %d rows of 5", got)
	}
	if got := mariaCount(t, dsn, "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name <> 'my_notes'"); got != 0 {
		t.Errorf("%d tables left beside the user's after schema drop", got)
	}
}

// holdRunTwice takes a run's hold on db and tries a second: the second is refused
// with this process named as the holder, and free again once the first lets go.
func holdRunTwice(t *testing.T, db database.DB) {
	t.Helper()
	ctx := context.Background()
	release, err := loader.HoldRun(ctx, db, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = loader.HoldRun(ctx, db, 0, 1)
	var held *loader.RunHeldError
	if !errors.As(err, &held) || held.Holder == nil || held.Holder.PID != int64(os.Getpid()) {
		t.Errorf("a second hold: %v, want the first named (pid %d)", err, os.Getpid())
	}
	release()
	again, err := loader.HoldRun(ctx, db, 0, 1)
	if err != nil {
		t.Fatalf("a hold after the release: %v", err)
	}
	again()
}

func mariaCount(t *testing.T, dsn, query string) int {
	t.Helper()
	var n int
	if err := testmdb.Open(t, dsn, database.Options{MaxConns: 1}).QueryRow(context.Background(), query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
