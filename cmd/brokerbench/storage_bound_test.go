package main

import (
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/results"
)

// storageBoundRun is the end-to-end check on the managed server: with the
// server's memory capped at about half the database, the disks must serve the reads:
// more than 5 per transaction, and more reads than writes. pgdata holds a stopped
// managed cluster with a finished load; TestSecretManagedNeverShown, which makes one,
// runs this as a subtest, so the package starts and loads one cluster less. It
// returns the capped run's output, for the caller's search for the password.
func storageBoundRun(t *testing.T, pgdata string) (outputs []string) {
	if testing.Short() {
		t.Skip("a 25-second run under a memory cap; skipped with -short")
	}
	if _, err := memcap.Find(); err != nil {
		t.Skipf("no memory cgroup can be made here, so no capped run: %v", err)
	}
	base := t.TempDir()
	dbBytes := dirBytes(t, filepath.Join(pgdata, "base"))
	capBytes := max(dbBytes/2, int64(pgmanaged.MinMemoryCap))
	out := filepath.Join(base, "capped.json")
	// The server starts cold under its cap: 10 s of warm-up fill the cache (at some
	// 30 MB/s of reads on a busy machine) before the window opens, so the step reads
	// from disk rather than measuring a cache still warming.
	code, stdout, stderr := runMain("run", "--pgdata", pgdata, "--server-memory", strconv.FormatInt(capBytes, 10),
		"--users", "4", "--step", "20s", "--warmup", "10s", "--no-check", "--out", out)
	outputs = append(outputs, "capped run stdout:\n"+stdout, "capped run stderr:\n"+stderr)
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
	// Reads against writes is no test of where the data came from: on a busy machine the
	// checkpointer and WAL can write more than the capped step reads, and the step still
	// reads from disk (docs/storage-bound.md, "The data-source rule").
	if st.CacheHitRatio == nil || st.DataSource != results.DataDisk || results.HasFlag(&st, results.FlagMemoryResident) {
		t.Errorf("hit ratio %v, data source %q, flags %v: want a step read from disk", fmtRatio(st.CacheHitRatio), st.DataSource, st.Flags)
	}
	if !strings.Contains(stdout, "rd/txn") || !strings.Contains(stdout, "hit ratio") {
		t.Errorf("step row or report lacks the storage columns:\n%s", stdout)
	}
	if code, _, errOut := runMain("pg", "status", "--pgdata", pgdata); code == 0 {
		t.Errorf("the run left the server running: %s", errOut)
	}
	if g := memcap.OpenExisting(filepath.Join(filepath.Dir(groupParent(t)), memcap.NameFor("pg", pgdata))); g != nil {
		t.Errorf("the run left its memory cgroup %s", g.Dir)
	}
	return outputs
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
