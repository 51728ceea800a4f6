package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	// Registers the SQL Server engine, and with it go-mssqldb's "sqlserver"
	// database/sql driver for the admin connections, which run statements the engine
	// has no reason to offer (CREATE DATABASE, BACKUP).
	_ "github.com/brokerbench/brokerbench/database/sqlserver"
)

// SQL Server helpers. Integration tests call
//
//	dsn := testdb.SQLServerDB(t)     // empty database, dropped after the test
//	dsn := testdb.SQLServerLoaded(t) // a copy of a database loaded at Scale and Seed
//
// and are skipped with one line when BROKERBENCH_SQLSERVER_DSN is unset. The DSN
// names a login that may create, back up and restore databases (sysadmin in the CI
// job of docs/sqlserver.md).

// EnvSQLServerDSN names the SQL Server for integration tests, as a go-mssqldb URL:
// sqlserver://user:password@host:1433?database=master&encrypt=true&TrustServerCertificate=true
const EnvSQLServerDSN = "BROKERBENCH_SQLSERVER_DSN"

// SQLServerSkip is the line a skipped test prints.
const SQLServerSkip = EnvSQLServerDSN + " not set: SQL Server integration tests skipped"

var sqlserverSeq atomic.Int64

// SQLServer returns the DSN of the test server, or skips the test when none is set.
func SQLServer(t testing.TB) string {
	t.Helper()
	dsn := strings.TrimSpace(os.Getenv(EnvSQLServerDSN))
	if dsn == "" {
		t.Skip(SQLServerSkip)
	}
	return dsn
}

// SQLServerWithDatabase returns dsn pointing at database db.
func SQLServerWithDatabase(dsn, db string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "database") || strings.EqualFold(k, "initial catalog") {
			q.Del(k)
		}
	}
	q.Set("database", db)
	u.RawQuery = q.Encode()
	return u.String()
}

// SQLServerDB creates an empty database for the test and drops it when the test
// ends. Where the server allows ALTER DATABASE ... SET it is set up the way
// docs/sqlserver.md recommends for a benchmark load: SIMPLE recovery (bulk copy with
// TABLOCK is minimally logged) and snapshot isolation allowed (so the snapshot
// read-committed mode can be tested); where it does not, the test logs so and tests
// that need snapshot isolation skip.
func SQLServerDB(t testing.TB) string {
	t.Helper()
	admin := SQLServer(t)
	abilities := SQLServerProbe(t)
	name := fmt.Sprintf("bbtest_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, sqlserverSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := sqlserverAdmin(ctx, admin, "CREATE DATABASE "+quoteName(name)); err != nil {
		t.Fatalf("create SQL Server test database: %v", err)
	}
	t.Cleanup(func() { dropSQLServerDB(t, admin, name, abilities) })
	if abilities.AlterSet {
		if err := sqlserverAdmin(ctx, admin,
			"ALTER DATABASE "+quoteName(name)+" SET RECOVERY SIMPLE",
			"ALTER DATABASE "+quoteName(name)+" SET ALLOW_SNAPSHOT_ISOLATION ON",
		); err != nil {
			t.Fatalf("set up SQL Server test database: %v", err)
		}
	} else {
		t.Logf("SQL Server test database %s keeps the server's defaults (recovery model, no snapshot isolation): the server refused %s",
			name, strings.Join(abilities.Refused, "; "))
	}
	return SQLServerWithDatabase(admin, name)
}

// dropSQLServerDB drops a test database. SINGLE_USER WITH ROLLBACK IMMEDIATE first
// ends sessions a test left open (a pool not closed), where the server allows it.
func dropSQLServerDB(t testing.TB, admin, name string, abilities SQLServerAbilities) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stmts []string
	if abilities.AlterSet {
		stmts = append(stmts, "ALTER DATABASE "+quoteName(name)+" SET SINGLE_USER WITH ROLLBACK IMMEDIATE")
	}
	stmts = append(stmts, "DROP DATABASE "+quoteName(name))
	if err := sqlserverAdmin(ctx, admin, stmts...); err != nil {
		t.Logf("drop SQL Server test database %s: %v", name, err)
	}
}

// SQLServerExec runs statements, each as its own batch, on the database dsn names.
func SQLServerExec(ctx context.Context, dsn string, stmts ...string) error {
	return sqlserverAdmin(ctx, dsn, stmts...)
}

func sqlserverAdmin(ctx context.Context, dsn string, stmts ...string) error {
	db, err := sql.Open("sqlserver", dsn)
	if err != nil {
		return fmt.Errorf("open: %s", safeErr(err, dsn))
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %s", s, safeErr(err, dsn))
		}
	}
	return nil
}

// safeErr keeps the password of dsn out of a message.
func safeErr(err error, dsn string) string {
	msg := err.Error()
	if u, perr := url.Parse(dsn); perr == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	return msg
}

// quoteName is T-SQL's QUOTENAME for the names these helpers generate.
func quoteName(s string) string { return "[" + strings.ReplaceAll(s, "]", "]]") + "]" }
