package iostat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// localPG opens a fresh test database and returns it with its server description;
// it skips when the server's data directory is not on this host (an external
// BROKERBENCH_TEST_DSN server elsewhere), since nothing local can be measured then.
func localPG(t *testing.T) (database.DB, database.ServerInfo) {
	t.Helper()
	dsn := testpg.NewDB(t)
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	info, err := db.Server(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.DataDir == "" {
		t.Skip("the test server does not show its data_directory (no superuser / pg_read_all_settings)")
	}
	if _, err := os.Stat(info.DataDir); err != nil {
		t.Skipf("the test server's data directory %s is not on this host (%s points elsewhere): %v", info.DataDir, testpg.EnvDSN, err)
	}
	if c := testpg.Cluster(t); c != nil && c.DataDir != "" {
		if a, b := evalOrSelf(c.DataDir), evalOrSelf(info.DataDir); a != b {
			t.Fatalf("managed cluster data dir %s, server says %s", a, b)
		}
	}
	return db, info
}

func evalOrSelf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// writeHeavyStep writes rows × 512 bytes of table data (and as much WAL) and
// checkpoints, so the data device sees writes within the step. On 15+ the writing
// backend's statistics are flushed before it returns: a backend that flushed less
// than a second before keeps them pending for up to 10 s once idle, so the WAL
// volume could miss a window closed right after (CI saw 55 bytes a commit).
func writeHeavyStep(t *testing.T, db database.DB, num, rows int) {
	t.Helper()
	ctx := t.Context()
	err := db.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
		stmts := []string{
			"CREATE TABLE iostat_fill (id int8, pad text)",
			fmt.Sprintf("INSERT INTO iostat_fill SELECT g, repeat(md5(g::text), 16) FROM generate_series(1, %d) g", rows),
		}
		if num >= 150000 {
			// Takes effect at the commit's report, before the server says it is ready.
			stmts = append(stmts, "SELECT pg_stat_force_next_flush()")
		}
		for _, q := range stmts {
			if _, err := tx.Exec(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The checkpointer reports its own writes when the checkpoint ends, but only after
	// it has woken the CHECKPOINT's backend: wait for the report (its count of requested
	// checkpoints moves with it), or a sample taken now can miss the writes.
	before := testpg.RequestedCheckpoints(t, db)
	if _, err := db.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatalf("CHECKPOINT: %v", err)
	}
	for testpg.RequestedCheckpoints(t, db) == before {
		select {
		case <-ctx.Done():
			t.Fatal("the checkpointer never reported the CHECKPOINT")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// waitSample waits until the sampler has taken a periodic sample after m, so a
// window closed now holds a series point.
func waitSample(t *testing.T, s *Sampler, m Mark) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		next := s.first + int64(len(s.hist))
		s.mu.Unlock()
		if next > m.seq+1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no periodic sample within a minute")
		}
	}
}

// TestPostgresDevicesFoundAndWritesSeen: the sampler finds the device under the
// managed server's data directory by itself, and a write-heavy step shows write IOPS
// on it, and WAL bytes per commit from pg_stat_wal.
func TestPostgresDevicesFoundAndWritesSeen(t *testing.T) {
	db, info := localPG(t)
	var notices []string
	s, err := Open(t.Context(), Options{DataDir: info.DataDir, WALDir: info.WALDir, DB: db, Interval: time.Second,
		Log: func(f string, a ...any) { notices = append(notices, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := newLocator("/proc", "/sys")
	if err != nil {
		t.Fatal(err)
	}
	maj, min, err := l.devNumber(info.DataDir)
	if err != nil {
		t.Skipf("the data directory %s has no block device (tmpfs?): %v", info.DataDir, err)
	}
	want, err := l.stackOf(maj, min)
	if err != nil {
		t.Skipf("the data directory %s has no block device: %v", info.DataDir, err)
	}
	if s.Source() != SourceDiskstats {
		t.Fatalf("source = %s, notices %q", s.Source(), notices)
	}
	var dataDev *Device
	for i, d := range s.Devices() {
		if d.Name == want.Top && strings.Contains(d.Role, RoleData) {
			dataDev = &s.Devices()[i]
		}
	}
	if dataDev == nil || !dataDev.InTotals {
		t.Fatalf("data device %s not found automatically: %+v", want.Top, s.Devices())
	}
	t.Logf("data directory %s on %s (%s); devices %+v", info.DataDir, want.Top, dataDev.Role, s.Devices())
	if dirs, why := s.Dirs(); len(dirs) == 0 || dirs[0] != info.DataDir || why != "" {
		t.Errorf("Dirs() = %q, %q: want the data directory %s first", dirs, why, info.DataDir)
	}

	s.Start(t.Context())
	a := s.Mark()
	writeHeavyStep(t, db, info.Num, 90000) // about 50 MB
	waitSample(t, s, a)
	b := s.Mark()
	io := s.Window(a, b, 3, 3)
	var got *float64
	for i, d := range io.Devices {
		if d.Name == want.Top {
			got = &io.Devices[i].WriteIOPS
		}
	}
	if got == nil || *got <= 0 || io.WriteIOPS <= 0 || io.WriteMBps <= 0 {
		t.Fatalf("no writes seen on %s during a write-heavy step: %+v", want.Top, io)
	}
	if info.Num < 150000 {
		t.Logf("WAL bytes per commit %.0f: before 15 a backend's statistics cannot be flushed on demand, so not checked", io.WALBytesPerCommit)
	} else if io.WALBytesPerCommit < 40e6/3 {
		t.Fatalf("WAL bytes per commit = %.0f, want ≥ 13 MB (about 50 MB over 3 commits)", io.WALBytesPerCommit)
	}
	if len(io.Series) == 0 {
		t.Fatal("no series points in a window with a periodic sample")
	}
	t.Logf("step: %.0f w/s %.1f MiB/s w_await %.2f ms aqu %.2f; wal/commit %.0f B; %d series points",
		io.WriteIOPS, io.WriteMBps, io.WriteAwaitMS, io.QueueDepth, io.WALBytesPerCommit, len(io.Series))
}

// TestPostgresViewsFallback: without a local data directory the database's own
// views are the source (pg_stat on 15, pg_stat_io on 16+), read over their own
// connection.
func TestPostgresViewsFallback(t *testing.T) {
	db, info := localPG(t)
	var notices []string
	s, err := Open(t.Context(), Options{DB: db, Log: func(f string, a ...any) { notices = append(notices, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantSrc := "pg_stat"
	if info.Num >= 160000 {
		wantSrc = "pg_stat_io"
	}
	if s.Source() != wantSrc || len(notices) != 1 {
		t.Fatalf("source = %s, notices %q", s.Source(), notices)
	}
	if dirs, why := s.Dirs(); dirs != nil || why == "" {
		t.Errorf("Dirs() = %q, %q: want none, and why", dirs, why)
	}
	a := s.Mark()
	writeHeavyStep(t, db, info.Num, 10000)
	b := s.Mark()
	io := s.Window(a, b, 3, 3)
	var data, wal *float64
	for i, d := range io.Devices {
		switch d.Role {
		case RoleData:
			data = &io.Devices[i].WriteIOPS
		case RoleWAL:
			wal = &io.Devices[i].WriteIOPS
		}
	}
	if data == nil || *data <= 0 || wal == nil || *wal <= 0 || io.WALBytesPerCommit <= 0 {
		t.Fatalf("views saw no writes: %+v", io)
	}
	if !strings.Contains(io.Note, "page-cache") {
		t.Fatalf("note = %q", io.Note)
	}
}

// TestPostgresForeignDataDirNotMeasured: a data directory path that exists here but
// is not the server's (a remote server whose path also exists on the driver host)
// must not make the sampler measure this host's disks.
func TestPostgresForeignDataDirNotMeasured(t *testing.T) {
	db, _ := localPG(t)
	var notices []string
	s, err := Open(t.Context(), Options{DataDir: t.TempDir(), DB: db, Log: func(f string, a ...any) { notices = append(notices, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Source() == SourceDiskstats || len(notices) == 0 || !strings.Contains(notices[0], "not measuring local disks") {
		t.Fatalf("source %s, notices %q", s.Source(), notices)
	}
	if dirs, why := s.Dirs(); dirs != nil || !strings.Contains(why, "not on this host") {
		t.Errorf("Dirs() = %q, %q: want none, the server not being on this host", dirs, why)
	}
}
