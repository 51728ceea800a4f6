package testpg

import (
	"os"
	"testing"
)

// ServerDir is a new folder a managed server's own user can reach, removed when the
// test ends: t.TempDir's parents are private to the test's user, and a server run
// as another user (as root's tests run it) must read its data folder's parents.
func ServerDir(t testing.TB, prefix string) string {
	t.Helper()
	base, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	return base
}
