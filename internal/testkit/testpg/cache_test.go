package testpg

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// cacheBuilds counts the builds of the prebuilt test template in this process: this
// package's test binary is the only process of its invocation with this template set,
// so it builds the shared cluster itself, once.
var cacheBuilds atomic.Int64

func init() {
	Prebuild("cachetest", func(ctx context.Context, dsn string) error {
		cacheBuilds.Add(1)
		db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1})
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(ctx, "CREATE TABLE prebuilt AS SELECT generate_series(1, 3) AS x")
		return err
	})
}

// requireShared skips where the shared cluster cannot apply and fails where it should
// have been used but was not.
func requireShared(t *testing.T) {
	t.Helper()
	if os.Getenv(EnvDSN) != "" {
		t.Skip("the tests use " + EnvDSN)
	}
	AdminDSN(t)
	if _, err := currentInvocation(); err != nil {
		t.Skipf("no shared cluster here: %v", err)
	}
	if shared.copyDir == "" {
		t.Fatalf("run by the go command on a system with /proc, but the shared cluster was not used: %s", shared.cacheErr)
	}
}

func countRows(t *testing.T, dsn, table string) int {
	t.Helper()
	return QueryInt(t, dsn, "SELECT count(*) FROM "+table)
}

// TestSharedClusterCopies: a second process of the invocation (played here by a second
// start) gets its own copy of the same built cluster: the prebuilt template is there
// without another build, the copy runs on its own port and folder, and what one copy
// writes the other does not see.
func TestSharedClusterCopies(t *testing.T) {
	requireShared(t)
	dsn := FromTemplate(t, "cachetest", func(context.Context, string) error {
		t.Error("the prebuilt template was built again by FromTemplate")
		return nil
	})
	if n := countRows(t, dsn, "prebuilt"); n != 3 {
		t.Fatalf("prebuilt template clone has %d rows, want 3", n)
	}

	first := Cluster(t)
	// The copies start from the built cluster's checkpoint segment alone.
	wal, err := os.ReadDir(filepath.Join(filepath.Dir(first.DataDir), dataName, "pg_wal"))
	if err != nil {
		t.Fatal(err)
	}
	segments := 0
	for _, e := range wal {
		if walSegment(e.Name()) {
			segments++
		}
	}
	if segments != 1 {
		t.Fatalf("the built cluster keeps %d WAL segments, want 1 (the last checkpoint's)", segments)
	}
	second, dir, err := startShared(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := second.Stop(); err != nil {
			t.Error(err)
		}
		os.RemoveAll(dir)
	}()
	if got := cacheBuilds.Load(); got != 1 {
		t.Fatalf("the shared cluster's template was built %d times in this process, want 1", got)
	}
	if second.Port == first.Port || second.DataDir == first.DataDir {
		t.Fatalf("copies share port or folder: %d %s, %d %s", first.Port, first.DataDir, second.Port, second.DataDir)
	}
	if filepath.Dir(second.DataDir) != filepath.Dir(first.DataDir) {
		t.Fatalf("copies of different caches: %s, %s", first.DataDir, second.DataDir)
	}
	if n := countRows(t, WithDatabase(second.URL(""), templateName("cachetest")), "prebuilt"); n != 3 {
		t.Fatalf("the second copy's template has %d rows, want 3", n)
	}
	own := NewDB(t)
	db := OpenDB(t, own, database.Options{MaxConns: 1})
	if _, err := db.Exec(context.Background(), "CREATE DATABASE only_in_first"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = db.Exec(context.Background(), "DROP DATABASE IF EXISTS only_in_first") })
	if n := countRows(t, second.URL(""), "pg_database WHERE datname = 'only_in_first'"); n != 0 {
		t.Fatal("a database made in the first copy shows in the second: they are one server")
	}
}

// fakeCache makes a cache folder for inv with a lock and a data folder.
func fakeCache(t *testing.T, inv invocation, hash string) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), cachePrefix+strconv.Itoa(os.Geteuid())+"-"+strconv.Itoa(inv.pid)+"-"+inv.start+"-"+hash)
	if err := openCacheDir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.MkdirAll(filepath.Join(dir, dataName), 0o700); err != nil {
		t.Fatal(err)
	}
	if got, ok := parseCacheDir(filepath.Base(dir)); !ok || got != inv {
		t.Fatalf("parseCacheDir(%s) = %v %v, want %v", dir, got, ok, inv)
	}
	return dir
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestStaleCacheRemoved: a cache whose invocation is gone (here: this process's pid
// with another start time, as after pid reuse) is removed; a live invocation's cache and
// a stale one a process still holds locked are kept.
func TestStaleCacheRemoved(t *testing.T) {
	start, ok := startTime(os.Getpid())
	if !ok {
		t.Skip("no /proc")
	}
	live := fakeCache(t, invocation{os.Getpid(), start}, "aaaaaaaaaaaa")
	stale := fakeCache(t, invocation{os.Getpid(), start + "0"}, "bbbbbbbbbbbb")
	held := fakeCache(t, invocation{os.Getpid(), start + "1"}, "cccccccccccc")
	lock, err := lockCache(held, syscall.LOCK_SH)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()

	removeStale()
	if exists(stale) {
		t.Error("stale cache kept")
	}
	if !exists(live) {
		t.Error("a live invocation's cache was removed")
	}
	if !exists(held) {
		t.Error("a cache in use (locked) was removed")
	}
}

// TestReaperRemovesCacheWhenInvocationEnds: the reaper outlives its starter, waits for
// the invocation (here a sleep process standing in for the go command) to end, ends a
// process left running in a copy (a server a killed test left behind), and removes
// the folder.
func TestReaperRemovesCacheWhenInvocationEnds(t *testing.T) {
	if _, ok := startTime(os.Getpid()); !ok {
		t.Skip("no /proc")
	}
	goCmd := exec.Command("sleep", "600")
	if err := goCmd.Start(); err != nil {
		t.Fatal(err)
	}
	goDone := make(chan struct{})
	go func() { goCmd.Wait(); close(goDone) }()
	defer goCmd.Process.Kill()
	start, ok := startTime(goCmd.Process.Pid)
	if !ok {
		t.Fatal("no start time for the stand-in go command")
	}
	dir := fakeCache(t, invocation{goCmd.Process.Pid, start}, "dddddddddddd")

	// A "server" left running in a copy: postmaster.pid names it, its folder is its cwd.
	copyDir := filepath.Join(dir, "c1")
	if err := os.Mkdir(copyDir, 0o700); err != nil {
		t.Fatal(err)
	}
	leftover := exec.Command("sleep", "600")
	leftover.Dir = copyDir
	if err := leftover.Start(); err != nil {
		t.Fatal(err)
	}
	leftoverDone := make(chan struct{})
	go func() { leftover.Wait(); close(leftoverDone) }()
	defer leftover.Process.Kill()
	if err := os.WriteFile(filepath.Join(copyDir, "postmaster.pid"), []byte(strconv.Itoa(leftover.Process.Pid)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	if err := startReaper(dir); err != nil {
		t.Fatal(err)
	}
	// While the invocation lives the cache stays. Nothing here can prove a negative
	// without waiting; a few of the reaper's one-second polls must pass.
	time.Sleep(3 * time.Second)
	if !exists(dir) {
		t.Fatal("the reaper removed the cache while its invocation was alive")
	}
	goCmd.Process.Kill()
	<-goDone
	select {
	case <-leftoverDone:
	case <-time.After(2 * time.Minute):
		t.Fatal("the reaper did not end the process left running in a copy")
	}
	deadline := time.Now().Add(2 * time.Minute)
	for exists(dir) {
		if time.Now().After(deadline) {
			t.Fatal("the reaper did not remove the cache after its invocation ended")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestFailedBuildIsRecorded: a template that fails to build fails the shared
// cluster's build with the template's error, and the next process of the invocation
// learns of it at once instead of building again (it then starts its own cluster, whose
// FromTemplate meets the same failure in the test that asked: nothing is hidden).
func TestFailedBuildIsRecorded(t *testing.T) {
	if os.Getenv(EnvDSN) != "" {
		t.Skip("the tests use " + EnvDSN)
	}
	start, ok := startTime(os.Getpid())
	if !ok {
		t.Skip("no /proc")
	}
	inv := invocation{os.Getpid(), start}
	dir := fakeCache(t, inv, "eeeeeeeeeeee")
	// No reaper: the test removes the folder itself.
	if err := os.WriteFile(filepath.Join(dir, reaperName), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	builds := 0
	failing := []prebuilt{{"broken", func(context.Context, string) error {
		builds++
		return errors.New("generator exploded")
	}}}
	err := ensureBuilt(context.Background(), dir, inv, failing)
	if err == nil || !strings.Contains(err.Error(), "generator exploded") {
		t.Fatalf("first build: err = %v, want the template's error", err)
	}
	err = ensureBuilt(context.Background(), dir, inv, failing)
	if err == nil || !strings.Contains(err.Error(), "another test process") || !strings.Contains(err.Error(), "generator exploded") {
		t.Fatalf("second build: err = %v, want the recorded failure", err)
	}
	if builds != 1 {
		t.Fatalf("template build ran %d times, want 1", builds)
	}
	if exists(filepath.Join(dir, readyName)) {
		t.Fatal("a failed build was marked ready")
	}
	// The failed build stopped its server: no postmaster left in the folder.
	if exists(filepath.Join(dir, dataName, "postmaster.pid")) {
		t.Fatal("the failed build left its server running")
	}
}
