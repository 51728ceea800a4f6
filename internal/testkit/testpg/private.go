package testpg

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// PrivateCluster starts a copy of the invocation's shared cluster, Prebuild templates
// included, in a folder of its own and returns it running: for a test that kills or
// restarts the server under a command, which the process's shared server cannot
// suffer (other tests use it). The copy is a kept cluster (its folder is its
// --pgdata), stopped and removed when the test ends. It skips the test when there is
// no shared cluster to copy (BROKERBENCH_TEST_DSN, or the cache could not be used).
func PrivateCluster(t testing.TB) *pgmanaged.Cluster {
	t.Helper()
	return PrivateClusterIn(t, "")
}

// PrivateClusterIn is PrivateCluster with the copy in a new folder of parent (a
// file system the test made; "" is the cache's folder), which the server's user
// must be able to enter.
func PrivateClusterIn(t testing.TB, parent string) *pgmanaged.Cluster {
	t.Helper()
	if Cluster(t) == nil || shared.copyDir == "" {
		t.Skip("a private server needs the invocation's shared cluster (unset " + EnvDSN + ")")
	}
	// The shared copy sits in the cache folder, next to the stopped original.
	cache := filepath.Dir(shared.copyDir)
	if parent == "" {
		parent = cache
	}
	lock, err := lockCache(cache, syscall.LOCK_SH)
	if err != nil {
		t.Fatalf("private cluster: %v", err)
	}
	dir, err := copyData(context.Background(), cache, parent, "p")
	lock.Close()
	if err != nil {
		t.Fatalf("private cluster: %v", err)
	}
	c, err := pgmanaged.Start(context.Background(), pgmanaged.Options{DataDir: dir})
	if err != nil {
		os.RemoveAll(dir)
		t.Fatalf("private cluster: %v", err)
	}
	t.Cleanup(func() {
		// The test may have left it stopped or killed: stop what runs, then remove.
		if cl, err := pgmanaged.Attach(dir); err == nil {
			_ = cl.Stop()
		}
		_ = os.RemoveAll(dir)
	})
	return c
}

// TakeTemplate renames the template named key on the server at adminDSN (a
// PrivateCluster's) to the database name, which is then an ordinary database: a
// loaded database in a private server without copying it. The template is gone from
// that server.
func TakeTemplate(t testing.TB, adminDSN, key, name string) string {
	t.Helper()
	db, err := openAdmin(adminDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tmpl := templateName(key)
	for _, stmt := range []string{"ALTER DATABASE " + tmpl + " IS_TEMPLATE false", "ALTER DATABASE " + tmpl + " RENAME TO " + name} {
		if _, err := db.Exec(context.Background(), stmt); err != nil {
			t.Fatalf("take %s as %s: %v", tmpl, name, err)
		}
	}
	return WithDatabase(adminDSN, name)
}
