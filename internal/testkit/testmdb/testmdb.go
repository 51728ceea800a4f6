// Package testmdb gives tests a real MariaDB: one throwaway server per test process
// (internal/mdbmanaged), started at the first test that asks, with a fresh database
// per test. Where the server cannot start (no binaries, as on a laptop without
// mariadb-server), a test skips, unless BROKERBENCH_REQUIRE_MARIADB is set (or
// CI=true), as .ci/run sets it: then it fails.
//
// Test packages using it stop the server after their tests:
//
//	func TestMain(m *testing.M) { os.Exit(testmdb.Main(m)) }
package testmdb

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	_ "github.com/brokerbench/brokerbench/database/mysql" // the engine the DSNs are for
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
)

// RequireEnv, when set, makes a test that cannot start MariaDB fail instead of skip.
const RequireEnv = "BROKERBENCH_REQUIRE_MARIADB"

var shared struct {
	once sync.Once
	s    *mdbmanaged.Server
	err  error
}

var dbSeq atomic.Int64

// Main runs the tests and stops the server if one was started.
func Main(m *testing.M) int {
	code := m.Run()
	Stop()
	return code
}

// Stop stops the shared server (Main does; a TestMain that wraps another harness's
// Main calls it itself).
func Stop() {
	if shared.s != nil {
		_ = shared.s.Stop()
	}
}

// Require skips or fails the test (see the package comment) when no managed MariaDB
// can start here, without starting one: for tests that start their own (a command
// run with --engine mariadb).
func Require(t testing.TB) {
	t.Helper()
	if err := mdbmanaged.Available(); err != nil {
		unavailable(t, err)
	}
}

func unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv(RequireEnv) != "" || os.Getenv("CI") == "true" {
		t.Fatalf("MariaDB: %v (%s or CI=true is set: the MariaDB tests must run)", err, RequireEnv)
	}
	t.Skipf("MariaDB: %v (set %s to make this a failure)", err, RequireEnv)
}

// Server returns the process's server, starting it at the first call; it skips or
// fails the test when the server cannot start (see the package comment).
func Server(t testing.TB) *mdbmanaged.Server {
	t.Helper()
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		shared.s, shared.err = mdbmanaged.Start(ctx, mdbmanaged.Options{Settings: map[string]string{
			"innodb-buffer-pool-size":  "256M",
			"innodb-log-file-size":     "256M",
			"innodb-lock-wait-timeout": "50",
			// Durability is not under test here; the suite runs on shared 2-core machines.
			"innodb-flush-log-at-trx-commit": "2",
		}})
	})
	if shared.err != nil {
		unavailable(t, shared.err)
	}
	return shared.s
}

// DSN creates a fresh database on the shared server, dropped when the test ends, and
// returns its URL.
func DSN(t testing.TB) string {
	t.Helper()
	s := Server(t)
	return s.URL(newDatabase(t, s))
}

// newDatabase creates a database on s, dropped when the test ends, and returns its name.
func newDatabase(t testing.TB, s *mdbmanaged.Server) string {
	t.Helper()
	name := fmt.Sprintf("bbtest_%d_%d", os.Getpid(), dbSeq.Add(1))
	ctx := context.Background()
	admin, err := database.Open(ctx, s.URL(mdbmanaged.Database), database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db, err := database.Open(context.Background(), s.URL(mdbmanaged.Database), database.Options{MaxConns: 1})
		if err != nil {
			return
		}
		defer db.Close()
		_, _ = db.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name)
	})
	return name
}

// Open opens a pool on dsn, closed when the test ends.
func Open(t testing.TB, dsn string, o database.Options) database.DB {
	t.Helper()
	db, err := database.Open(context.Background(), dsn, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}
