package testpg

import (
	"sync"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// StopCluster stops every process of c, a server the test owns (PrivateCluster),
// with SIGSTOP and returns once the kernel reports each one stopped: a stalled
// server, as a hung array or a frozen VM looks to its clients. resume (SIGCONT) is
// idempotent and also runs when the test ends, so no server is left stopped.
func StopCluster(t testing.TB, c *pgmanaged.Cluster) (resume func()) {
	t.Helper()
	pm, err := c.PostmasterPID()
	if err != nil {
		t.Fatalf("stop the server: %v", err)
	}
	pids := []int{pm}
	var once sync.Once
	resume = func() {
		once.Do(func() {
			for _, p := range pids {
				_ = syscall.Kill(p, syscall.SIGCONT)
			}
		})
	}
	t.Cleanup(resume)
	// The postmaster first, confirmed stopped before its children are listed: a
	// stopped postmaster forks no backend the list would miss.
	if err := stopAndConfirm(pids); err != nil {
		t.Fatalf("stop the server: %v", err)
	}
	kids := childrenOf(pm)
	pids = append(pids, kids...)
	if err := stopAndConfirm(kids); err != nil {
		t.Fatalf("stop the server: %v", err)
	}
	return resume
}
