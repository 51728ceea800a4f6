package mdbmanaged_test

import (
	"context"
	"sync"
	"testing"

	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// TestStartsAtOnce: managed servers made at the same moment (the suite's MariaDB
// tests beside each other, or two users' quickstarts) all start. Their installs once
// shared /tmp for temporary tables and removed each other's: 3 of 6 aborted.
func TestStartsAtOnce(t *testing.T) {
	t.Parallel()
	testmdb.Require(t)
	if testing.Short() {
		t.Skip("six MariaDB installs at once; skipped with -short")
	}
	const n = 6
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s, err := mdbmanaged.Start(context.Background(), mdbmanaged.Options{})
			errs[i] = err
			if err == nil {
				_ = s.Stop()
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d of %d made at once: %v", i+1, n, err)
		}
	}
}
