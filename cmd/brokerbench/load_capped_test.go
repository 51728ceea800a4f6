package main

import (
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// TestLoadIntoKeptCappedCluster: a kept cluster started with a 192 MB cap loads
// 1,000 customers. The load's table streams and index builds need more than the
// cap, whose OOM killer ended a backend mid-load: the load lifts the cap for its
// duration, says so in one line, and the cap is back on the server afterwards.
func TestLoadIntoKeptCappedCluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a load into a capped cluster; skipped with -short")
	}
	pgdata := keptClusterFolder(t, "bb-load-cap-")
	const capBytes = 192_000_000
	if code, stdout, stderr := runMain("pg", "start", "--pgdata", pgdata, "--server-memory", "192MB"); code != 0 {
		t.Fatalf("pg start: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runMain("load", "--pgdata", pgdata, "--customers", "1000", "--trade-days", "5")
	if code != 0 {
		t.Fatalf("load: exit %d\n%s%s", code, stdout, stderr)
	}
	if want := "lifting the server's memory cap of 183.1 MiB for the load"; strings.Count(stderr, want) != 1 {
		t.Errorf("the load does not say once that it lifts the cap (%q):\n%s", want, stderr)
	}
	if strings.Contains(stderr, "OOM") {
		t.Errorf("the load met the OOM killer:\n%s", stderr)
	}
	c, err := pgmanaged.Attach(pgdata)
	if err != nil {
		t.Fatal(err)
	}
	if c.MemoryCap != capBytes || c.CapLifted() {
		t.Errorf("after the load: cap %d, lifted %v; want %d, set", c.MemoryCap, c.CapLifted(), capBytes)
	}
	if lim, err := memcap.OpenExisting(c.MemoryGroup()).Limit(); err != nil || lim != capBytes {
		t.Errorf("after the load the group's limit is %d (%v), want %d", lim, err, capBytes)
	}
	pid, err := c.PostmasterPID()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := memcap.GroupOf(pid); err != nil || got == "/" || !strings.HasSuffix(c.MemoryGroup(), got) {
		t.Errorf("after the load the postmaster is in memory cgroup %s (%v), want %s", got, err, c.MemoryGroup())
	}
	if code, _, stderr := runMain("pg", "stop", "--pgdata", pgdata); code != 0 {
		t.Errorf("pg stop: exit %d\n%s", code, stderr)
	}
}
