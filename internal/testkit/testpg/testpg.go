// Package testpg is the test harness's PostgreSQL: one real server per test process
// (or an existing one named by BROKERBENCH_TEST_DSN), fresh databases
// per test, and templates that are built once and cloned per test. Its own server is a
// managed cluster like any user's: it requires a password, which the URLs handed out
// here carry (test output may show them; the password dies with the cluster).
//
// In a package that registers templates with Prebuild (testdb's loaded template), each
// process's server is a copy of one cluster built once per go test invocation: the
// first such test process runs initdb and the templates, and every process (that one
// included) copies the stopped cluster and starts its copy on a port of its own, so
// initdb and the loaded template, a large share of the suite's CPU when every package
// paid them, are paid once. The cache's rules (one invocation only,
// cleaned up after it, a process of its own when it cannot be used) are in cache.go.
//
// Use it from a package's tests:
//
//	func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }
//
//	dsn := testpg.NewDB(t)                            // empty database, dropped after the test
//	dsn := testpg.FromTemplate(t, "key", buildFunc)   // clone of a template built once
package testpg

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// EnvDSN names an existing server for the tests (an admin URL, e.g. database postgres).
const EnvDSN = "BROKERBENCH_TEST_DSN"

type server struct {
	admin   string // URL of the maintenance database
	cluster *pgmanaged.Cluster
	copyDir string // the copy of the invocation's shared cluster that cluster runs in
	// cacheErr is why the shared cluster was not used ("" when it was, or with EnvDSN).
	cacheErr string
	err      error
}

var (
	once   sync.Once
	shared server
	seq    atomic.Int64
)

func start() {
	if dsn := os.Getenv(EnvDSN); dsn != "" {
		shared.admin = dsn
		return
	}
	ctx := context.Background()
	c, dir, err := startShared(ctx)
	if err != nil {
		// The cache is an optimisation: without it the process starts its own cluster,
		// and only a failure of that one fails the tests.
		shared.cacheErr = err.Error()
		if !errors.Is(err, errNothingToShare) {
			fmt.Fprintf(os.Stderr, "testpg: no shared cluster (%v); starting this process's own\n", err)
		}
		if c, err = pgmanaged.Start(ctx, pgmanaged.Options{}); err != nil {
			shared.err = err
			return
		}
	}
	shared.cluster, shared.copyDir = c, dir
	shared.admin = c.URL("postgres")
}

// Main runs the package's tests and stops the server this process started. (A test
// binary started with the cache's reaper variable set is the reaper: cache.go.)
func Main(m *testing.M) int {
	if dir := os.Getenv(reapEnv); dir != "" {
		return reap(dir)
	}
	code := m.Run()
	if shared.cluster != nil {
		if err := shared.cluster.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "testpg: stop:", err)
		} else if shared.copyDir != "" {
			// A server that would not stop keeps its folder: the reaper ends both.
			if err := os.RemoveAll(shared.copyDir); err != nil {
				fmt.Fprintln(os.Stderr, "testpg: remove the cluster's copy:", err)
			}
		}
	}
	return code
}

// AdminDSN returns the URL of the server's maintenance database; the test fails when
// no server can be had (tests never fake the database).
func AdminDSN(t testing.TB) string {
	t.Helper()
	once.Do(start)
	if shared.err != nil {
		t.Fatalf("test PostgreSQL: %v", shared.err)
	}
	return shared.admin
}

// Cluster returns the managed cluster this process started, or nil when the tests use
// BROKERBENCH_TEST_DSN (fault tests that restart the server skip then).
func Cluster(t testing.TB) *pgmanaged.Cluster {
	AdminDSN(t)
	return shared.cluster
}

// WithDatabase returns dsn pointing at another database.
func WithDatabase(dsn, db string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	u.Path = "/" + db
	return u.String()
}

func admin(t testing.TB) database.DB {
	t.Helper()
	db, err := openAdmin(AdminDSN(t))
	if err != nil {
		t.Fatalf("test PostgreSQL: %v", err)
	}
	return db
}

func openAdmin(dsn string) (database.DB, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return database.Open(ctx, dsn, testOptions(database.Options{MaxConns: 1}))
}

// testOptions gives a test's pool a generous connect timeout unless it names one: on
// a machine with few cores busy with other test processes a new backend can take longer than
// the 10 s a user's connect gets, and the pool connects again after every fault.
func testOptions(o database.Options) database.Options {
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	return o
}

func uniqueName(prefix string) string {
	return fmt.Sprintf("%s_%d_%d_%d", prefix, os.Getpid(), time.Now().UnixNano()%1e6, seq.Add(1))
}

// OpenDB opens dsn through database.Open for a test (with testOptions' connect
// timeout unless o names one), fails the test when it cannot, and closes it when the
// test ends.
func OpenDB(t testing.TB, dsn string, o database.Options) database.DB {
	t.Helper()
	db, err := database.Open(context.Background(), dsn, testOptions(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// QueryInt runs query, which returns one integer, on a one-connection pool of its own
// and closes the pool before returning (not at the test's end), so a test that counts
// backends or goroutines next sees none of it.
func QueryInt(t testing.TB, dsn, query string, args ...any) int {
	t.Helper()
	db, err := database.Open(context.Background(), dsn, testOptions(database.Options{MaxConns: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// NewDB creates an empty database, drops it when the test ends, and returns its URL.
func NewDB(t testing.TB) string {
	t.Helper()
	return create(t, "")
}

func create(t testing.TB, template string) string {
	t.Helper()
	db := admin(t)
	defer db.Close()
	name := uniqueName("bbtest")
	stmt := "CREATE DATABASE " + name
	if template != "" {
		// FILE_COPY copies the files instead of WAL-logging every block: much faster
		// for a loaded template.
		stmt += " TEMPLATE " + template + " STRATEGY FILE_COPY"
	}
	ctx := context.Background()
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if _, err = db.Exec(ctx, stmt); err == nil {
			break
		}
		// 55006: the template is being accessed by another backend for a moment.
		if postgres.SQLState(err) != "55006" {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		d := admin(t)
		defer d.Close()
		if _, err := d.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	return WithDatabase(AdminDSN(t), name)
}

// FromTemplate returns a fresh database cloned from the template named key, building
// the template once (across test processes, under an advisory lock) with build, which
// receives the URL of the database to fill. A template registered with Prebuild is
// already in the cluster (built once for the whole go test invocation).
func FromTemplate(t testing.TB, key string, build func(ctx context.Context, dsn string) error) string {
	t.Helper()
	start := time.Now()
	built, err := ensureTemplate(context.Background(), AdminDSN(t), key, build)
	if err != nil {
		t.Fatal(err)
	}
	if built {
		t.Logf("built template %s in %s", templateName(key), time.Since(start).Round(time.Millisecond))
	}
	return create(t, templateName(key))
}

func templateName(key string) string { return "bbtmpl_" + sanitize(key) }

// ensureTemplate builds the template named key on the server at adminDSN unless it is
// there; built says whether this call built it.
func ensureTemplate(ctx context.Context, adminDSN, key string, build BuildFunc) (built bool, err error) {
	tmpl := templateName(key)
	db, err := openAdmin(adminDSN)
	if err != nil {
		return false, fmt.Errorf("test PostgreSQL: %w", err)
	}
	defer db.Close()
	h := fnv.New64a()
	h.Write([]byte(tmpl))
	lock := int64(h.Sum64() >> 1)
	if _, err := db.Exec(ctx, "SELECT pg_advisory_lock($1)", lock); err != nil {
		return false, fmt.Errorf("lock template %s: %w", tmpl, err)
	}
	defer func() { _, _ = db.Exec(ctx, "SELECT pg_advisory_unlock($1)", lock) }()
	var exists bool
	if err := db.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tmpl).Scan(&exists); err != nil {
		return false, err
	}
	if exists {
		return false, nil
	}
	building := tmpl + "_build"
	_, _ = db.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)")
	if _, err := db.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return false, fmt.Errorf("create template: %w", err)
	}
	if err := build(ctx, WithDatabase(adminDSN, building)); err != nil {
		return false, fmt.Errorf("build template %s: %w", tmpl, err)
	}
	// The rename makes the template visible only once it is complete.
	if _, err := db.Exec(ctx, "ALTER DATABASE "+building+" RENAME TO "+tmpl); err != nil {
		return false, fmt.Errorf("publish template: %w", err)
	}
	return true, nil
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 32
		}
		return '_'
	}, s)
}
