package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/results"
)

// TestStorageBoundRun is the end-to-end check on the managed server: load,
// then run with the server's memory capped at about half the database. The disks must
// then serve the reads: more than 5 per transaction, and more reads than writes.
func TestStorageBoundRun(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 1,000 customers into its own cluster (a minute or two); skipped with -short")
	}
	if _, err := pgmanaged.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	if _, err := memcap.Find(); err != nil {
		t.Skipf("no memory cgroup can be made here, so no capped run: %v", err)
	}
	// The server's user must reach the cluster: t.TempDir's parents are private.
	base, err := os.MkdirTemp("", "bb-storage-bound-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(base, 0o755)
	pgdata := filepath.Join(base, "pg")
	t.Cleanup(func() {
		runMain("pg", "stop", "--pgdata", pgdata)
		os.RemoveAll(base)
	})
	for _, args := range [][]string{
		{"pg", "start", "--pgdata", pgdata},
		{"load", "--pgdata", pgdata, "--customers", "1000", "--trade-days", "5", "-q"},
		{"pg", "stop", "--pgdata", pgdata},
	} {
		if code, out, errOut := runMain(args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	dbBytes := dirBytes(t, filepath.Join(pgdata, "base"))
	capBytes := max(dbBytes/2, int64(pgmanaged.MinMemoryCap))
	out := filepath.Join(base, "capped.json")
	code, stdout, stderr := runMain("run", "--pgdata", pgdata, "--server-memory", strconv.FormatInt(capBytes, 10),
		"--users", "4", "--step", "20s", "--warmup", "5s", "--no-check", "--out", out)
	if code != 0 {
		t.Fatalf("capped run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Database.MemoryCapBytes != capBytes || r.Database.SizeBytes < dbBytes/2 {
		t.Errorf("database %+v: want memory_cap_bytes %d and size_bytes about %d", r.Database, capBytes, dbBytes)
	}
	if len(r.Steps) != 1 || r.Steps[0].IO == nil || r.Steps[0].IO.ReadsPerTxn == nil {
		t.Fatalf("no storage figures: %+v", r.Steps)
	}
	st := r.Steps[0]
	t.Logf("database %d MB, cap %d MB: %.1f tps, read %.0f / write %.0f IOPS, %.2f reads and %.2f writes per txn, hit ratio %v, flags %v",
		dbBytes>>20, capBytes>>20, st.TPS, st.IO.ReadIOPS, st.IO.WriteIOPS, *st.IO.ReadsPerTxn, *st.IO.WritesPerTxn, fmtRatio(st.CacheHitRatio), st.Flags)
	if *st.IO.ReadsPerTxn <= 5 {
		t.Errorf("%.2f disk reads per transaction under a cap of half the database, want more than 5", *st.IO.ReadsPerTxn)
	}
	if st.IO.ReadIOPS <= st.IO.WriteIOPS {
		t.Errorf("read IOPS %.0f not above write IOPS %.0f", st.IO.ReadIOPS, st.IO.WriteIOPS)
	}
	if st.CacheHitRatio == nil || results.HasFlag(&st, results.FlagMemoryResident) {
		t.Errorf("hit ratio %v, flags %v", fmtRatio(st.CacheHitRatio), st.Flags)
	}
	if !strings.Contains(stdout, "rd/txn") || !strings.Contains(stdout, "hit ratio") {
		t.Errorf("step row or report lacks the storage columns:\n%s", stdout)
	}
	if code, _, errOut := runMain("pg", "status", "--pgdata", pgdata); code == 0 {
		t.Errorf("the run left the server running: %s", errOut)
	}
	if g := memcap.OpenExisting(filepath.Join(filepath.Dir(groupParent(t)), memcap.NameFor(pgdata))); g != nil {
		t.Errorf("the run left its memory cgroup %s", g.Dir)
	}
}

func fmtRatio(r *float64) any {
	if r == nil {
		return "unknown"
	}
	return *r
}

// dirBytes is the size of the files under dir (the cluster's relation files).
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// groupParent is where this machine makes memory cgroups, plus a name, so that its
// Dir is the parent.
func groupParent(t *testing.T) string {
	c, err := memcap.Find()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(c.Parent, "x")
}
