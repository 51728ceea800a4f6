package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/results"
)

// TestKeptCappedClusterAcrossProcesses follows the README's "keep a managed
// cluster" flow with a cap, each command in its own process as a user types them:
// pg start --server-memory, load (which restarts the server with the load settings
// and back), run, check, pg status and pg stop. After every one the server's
// postmaster runs in the cluster's memory cgroup at the cap. A later pg start
// without --server-memory keeps the cap and says so. The cap is 512 MB: the load
// streams its tables over about 40 connections at once, whose backends take some
// 4 MB each beside the server's shared memory.
func TestKeptCappedClusterAcrossProcesses(t *testing.T) {
	t.Parallel()
	pgdata := keptClusterFolder(t, "bb-kept-cap-")
	const capBytes = 512 << 20
	cli := func(want int, args ...string) string {
		t.Helper()
		c := startChild(t, args...)
		<-c.done
		c.mu.Lock()
		out := c.stdout.String() + c.err.String()
		c.mu.Unlock()
		if c.code != want {
			t.Fatalf("brokerbench %s: exit %d, want %d\n%s", strings.Join(args, " "), c.code, want, out)
		}
		return out
	}
	capped := func(after string) {
		t.Helper()
		c, err := pgmanaged.Attach(pgdata)
		if err != nil {
			t.Fatalf("after %s: %v", after, err)
		}
		group := c.MemoryGroup()
		pid, err := c.PostmasterPID()
		if err != nil || group == "" || c.MemoryCap != capBytes {
			t.Fatalf("after %s: group %q, cap %d, postmaster %d (%v)", after, group, c.MemoryCap, pid, err)
		}
		if got, err := memcap.GroupOf(pid); err != nil {
			t.Fatal(err)
		} else if got == "/" || !strings.HasSuffix(group, got) {
			t.Errorf("after %s: postmaster in memory cgroup %s, want %s", after, got, group)
		}
		if lim, err := memcap.OpenExisting(group).Limit(); err != nil || lim != capBytes {
			t.Errorf("after %s: group limit %d (%v), want %d", after, lim, err, capBytes)
		}
	}

	cli(0, "pg", "start", "--pgdata", pgdata, "--server-memory", "512MiB")
	capped("pg start")
	cli(0, "load", "--pgdata", pgdata, "--customers", "1000", "--trade-days", "5")
	capped("load")
	out := filepath.Join(filepath.Dir(pgdata), "run.json")
	cli(0, "run", "--pgdata", pgdata, "--users", "2", "--step", "3s", "--warmup", "1s", "--rate", "20", "--no-check", "--out", out)
	capped("run")
	if r, err := results.Read(out); err != nil || r.Database.MemoryCapBytes != capBytes {
		t.Errorf("run's file: %v, memory cap %d", err, r.Database.MemoryCapBytes)
	}
	cli(0, "check", "--pgdata", pgdata)
	capped("check")
	if s := cli(0, "pg", "status", "--pgdata", pgdata); !strings.Contains(s, "server memory capped at 512 MiB") {
		t.Errorf("pg status does not say the cap:\n%s", s)
	}
	capped("pg status")
	group := memcap.OpenExisting(filepath.Join(filepath.Dir(groupParent(t)), memcap.NameFor("pg", pgdata)))
	cli(0, "pg", "stop", "--pgdata", pgdata)
	if group != nil {
		if _, err := os.Stat(group.Dir); !os.IsNotExist(err) {
			t.Errorf("pg stop left the memory cgroup %s", group.Dir)
		}
	}
	// Started again without --server-memory: the cap the cluster had, said in one line.
	if s := cli(0, "pg", "start", "--pgdata", pgdata); !strings.Contains(s, "server memory capped at 512 MiB, as when this cluster last started") {
		t.Errorf("a later pg start does not say it keeps the cap:\n%s", s)
	}
	capped("pg start without --server-memory")
	cli(0, "pg", "stop", "--pgdata", pgdata)
}

// keptClusterFolder is a folder for a kept, capped managed cluster that the test
// stops and removes at its end; it skips where no server binaries or memory cgroup are.
func keptClusterFolder(t *testing.T, prefix string) string {
	t.Helper()
	if _, err := pgmanaged.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	if _, err := memcap.Find(); err != nil {
		t.Skipf("no usable memory cgroup on this machine: %v", err)
	}
	pgdata := filepath.Join(testpg.ServerDir(t, prefix), "kept")
	// Cleanups run last first: the server stops before its folder goes.
	t.Cleanup(func() {
		if c, err := pgmanaged.Attach(pgdata); err == nil {
			_ = c.Stop()
		}
	})
	return pgdata
}
