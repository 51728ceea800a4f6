// Package testdb gives tests a loaded brokerage database: a fresh clone of a template
// that is loaded once at a small scale with the default seed. Under go test the load
// runs once for the whole invocation: testdb registers the template with
// testpg.Prebuild, the first test process builds it into the invocation's shared
// cluster, and every package's process starts a copy of that cluster with the template
// in it. With BROKERBENCH_TEST_DSN, or when the shared cluster cannot be had, it is
// loaded once per server under testpg's lock. The template's name includes the
// generator version, so a changed generator builds a new template instead of reusing
// stale data.
//
// Test packages using it need testpg's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }
//
//	dsn := testdb.Loaded(t)
//
// Prefer a clone to a load of one's own: a load of this scale costs about 20 CPU
// seconds of the server and the generators, a clone a file copy, and on the small
// machines the suite must finish on (README, "Two commands"), loads are what makes a
// package slow. Load in a
// test only when the load itself is under test (its output, its faults), and let one
// such load carry every check that needs it. A test owning its clone can run with
// t.Parallel; one that pauses or restarts the server must not (it owns the server).
package testdb

import (
	"context"
	"fmt"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
)

// Scale and Seed of the template: one load unit and the minimum trade days keep the
// build short while every transaction still finds its time windows (docs/workload.md §3.2).
var (
	Scale = schema.Scale{Customers: 1000, TradeDays: 5}
	Seed  = loader.DefaultSeed
)

// The loaded template is built once per go test invocation, into the cluster that
// every test process of the invocation copies (testpg's cache.go): a package importing
// testdb finds it already in its server.
func init() { testpg.Prebuild(loadedKey(), Build) }

// loadedKey names the template by what its contents depend on: a changed scale, seed
// or generator builds a new one.
func loadedKey() string {
	return fmt.Sprintf("loaded_c%d_d%d_s%d_g%d", Scale.Customers, Scale.TradeDays, Seed, loader.GeneratorVersion)
}

// Loaded returns the URL of a fresh database cloned from the loaded template; it is
// dropped when the test ends.
func Loaded(t testing.TB) string {
	t.Helper()
	return testpg.FromTemplate(t, loadedKey(), Build)
}

// Build loads the template's scale and seed into the database at dsn.
func Build(ctx context.Context, dsn string) error {
	db, err := database.Open(ctx, dsn, database.Options{MaxConns: loader.MaxConnections})
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = loader.Load(ctx, db, loader.Options{Scale: Scale, Seed: Seed, ToolVersion: "testdb"}, nil)
	return err
}

// LoadedTaken makes the loaded template of the server at adminDSN (a
// testpg.PrivateCluster's) its database name (testpg.TakeTemplate) and returns its
// URL: the private server is a copy of the shared one and already holds the load, so
// a clone would copy every byte of it a second time.
func LoadedTaken(t testing.TB, adminDSN, name string) string {
	t.Helper()
	return testpg.TakeTemplate(t, adminDSN, loadedKey(), name)
}
