package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
)

// Files brokerbench did not create (docs/faults.md): a user's file as a replay
// target, an output named as an input, a device holding a file system.

// writeUserFile writes a user's text file of n numbered lines with mode 0640 and
// returns its path and checksum.
func writeUserFile(t *testing.T, dir string, n int) (path string, sum [32]byte) {
	t.Helper()
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "line %06d of the user's own file, not brokerbench's\n", i)
	}
	path = filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, b.Bytes(), 0o640); err != nil {
		t.Fatal(err)
	}
	return path, sha256.Sum256(b.Bytes())
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

// wantOneLine fails unless stderr is one line holding want.
func wantOneLine(t *testing.T, what string, code, wantCode int, stderr, want string) {
	t.Helper()
	if code != wantCode || !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("%s: exit %d, stderr %q; want exit %d and one line with %q", what, code, stderr, wantCode, want)
	}
}

// TestReplayTargetUsersFile: a replay whose trace writes is refused on a user's
// existing file of 200,000 lines, --span or not, which stays byte for byte as it
// was; --allow-overwrite must name that file; --skip-writes only reads it; and
// --allow-overwrite naming it lets the replay write it, keeping its mode.
func TestReplayTargetUsersFile(t *testing.T) {
	t.Parallel()
	trace, _ := writeTrace(t, 300)
	dir := t.TempDir()
	user, sum := writeUserFile(t, dir, 200_000)
	out := filepath.Join(dir, "r.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"plain", nil, "--target " + user + " already exists"},
		{"span", []string{"--span", "0:1MiB"}, "pass --allow-overwrite " + user},
		{"allow names another file", []string{"--allow-overwrite", filepath.Join(dir, "other.txt")}, "does not name --target"},
		{"device flag on a file", []string{"--allow-device-writes", user}, "an existing file takes --allow-overwrite"},
	} {
		code, _, stderr := runMain(append([]string{"replay", trace, "--target", user, "--out", out}, tc.args...)...)
		wantOneLine(t, tc.name, code, exitUsage, stderr, tc.want)
		if strings.Contains(stderr, "--span") {
			t.Errorf("%s: the refusal suggests --span, which maps writes onto the file: %q", tc.name, stderr)
		}
		if fileSum(t, user) != sum {
			t.Fatalf("%s: the user's file changed", tc.name)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: a result file was written", tc.name)
		}
	}
	needFioBinary(t)
	code, _, stderr := runMain("replay", trace, "--target", user, "--skip-writes", "--asap", "--out", out)
	if code != 0 || fileSum(t, user) != sum {
		t.Fatalf("reads-only replay: exit %d (%s); file unchanged: %v", code, stderr, fileSum(t, user) == sum)
	}
	code, _, stderr = runMain("replay", trace, "--target", user, "--allow-overwrite", user, "--asap", "--out", filepath.Join(dir, "w.json"))
	if code != 0 {
		t.Fatalf("replay with --allow-overwrite: exit %d: %s", code, stderr)
	}
	fi, err := os.Stat(user)
	if err != nil {
		t.Fatalf("the named file is gone: %v", err)
	}
	if fileSum(t, user) == sum || fi.Mode().Perm() != 0o640 {
		t.Errorf("after --allow-overwrite: changed %v, mode %v (want changed, 0640)", fileSum(t, user) != sum, fi.Mode().Perm())
	}
}

// TestReplayCreatedTarget: a target file the replay created is removed after it,
// saying so, unless --keep-target; one that would not fit the free space is refused
// with the figures before anything is written.
func TestReplayCreatedTarget(t *testing.T) {
	t.Parallel()
	trace, _ := writeTrace(t, 30)
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.dat")
	code, _, stderr := runMain("replay", trace, "--target", huge, "--span", "0:1000TB", "--out", filepath.Join(dir, "h.json"))
	wantOneLine(t, "larger than the free space", code, exitUsage, stderr, "is free there")
	if _, err := os.Stat(huge); err == nil {
		t.Error("the target was created anyway")
	}
	needFioBinary(t)
	target := filepath.Join(dir, "replay.dat")
	code, _, stderr = runMain("replay", trace, "--target", target, "--asap", "--out", filepath.Join(dir, "a.json"))
	if code != 0 || !strings.Contains(stderr, "removed the") {
		t.Fatalf("exit %d, stderr %q; want exit 0 saying the target was removed", code, stderr)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the created target is still there")
	}
	code, _, stderr = runMain("replay", trace, "--target", target, "--asap", "--keep-target", "--out", filepath.Join(dir, "b.json"))
	if _, err := os.Stat(target); code != 0 || err != nil {
		t.Errorf("--keep-target: exit %d (%s), target: %v", code, stderr, err)
	}
}

// TestOutputIsInput: no command writes an output over one of its inputs, however
// the path is spelled (a symlink to it too), nor capture over a capture.json it
// did not write; each stays byte for byte.
func TestOutputIsInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := writeRun(t, dir, "a.json", "A", 1, 1)
	b := writeRun(t, dir, "b.json", "B", 1, 1)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	trace, _ := writeTrace(t, 30)
	profile := filepath.Join(dir, "p.json")
	if err := os.WriteFile(profile, []byte(`{"name": "mine", "rw": "randread", "bs": "4k"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "run.yaml")
	if err := os.WriteFile(cfg, []byte("users: 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	capDir := filepath.Join(dir, "cap")
	summary := filepath.Join(capDir, captureSummaryFile)
	if err := os.Mkdir(capDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(summary, []byte("the user's capture.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sums := map[string][32]byte{a: fileSum(t, a), b: fileSum(t, b), trace: fileSum(t, trace), profile: fileSum(t, profile), summary: fileSum(t, summary), cfg: fileSum(t, cfg)}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", a, "--csv", a}, "--csv " + a + " is also an input; choose another output file"},
		{[]string{"report", a, "--html", a}, "--html " + a + " is also an input"},
		{[]string{"report", a, b, "--html", b}, "--html " + b + " is also an input"},
		{[]string{"report", a, "--html", link}, "--html " + link + " is also an input"},
		{[]string{"compare", a, a, "--html", a}, "--html " + a + " is also an input"},
		{[]string{"compare", a, b, "--json", b}, "--json " + b + " is also an input"},
		{[]string{"compare", a, b, "--csv", filepath.Join(dir, ".", "b.json")}, "is also an input"},
		{[]string{"merge", a, b, "-o", b}, "--out " + b + " is also an input"},
		{[]string{"run", "--config", cfg, "--out", cfg}, "--out " + cfg + " is also an input"},
		{[]string{"replay", trace, "--target", filepath.Join(dir, "t.dat"), "--out", trace}, "--out " + trace + " is also an input"},
		{[]string{"replay", trace, "--target", trace, "--allow-overwrite", trace}, "--target " + trace + " is also an input"},
		{[]string{"disk", "--dir", dir, "--profile-file", profile, "--out", profile}, "--out " + profile + " is also an input"},
		{[]string{"disk", "--dir", dir, "--from-run", a, "--out", a}, "--out " + a + " is also an input"},
		{[]string{"capture", "--blktrace", summary, "--out", capDir}, "--out " + summary + " is also an input"},
		{[]string{"capture", "--blktrace", trace, "--out", capDir}, "already holds a capture.json"},
	} {
		code, _, stderr := runMain(tc.args...)
		wantOneLine(t, strings.Join(tc.args, " "), code, exitUsage, stderr, tc.want)
	}
	for p, s := range sums {
		if fileSum(t, p) != s {
			t.Errorf("%s changed", p)
		}
	}
}

// TestDeviceFileSystemNamed: writes refused on an unmounted device say which file
// system they would destroy; allowed, they say it before writing.
func TestDeviceFileSystemNamed(t *testing.T) {
	t.Parallel()
	raw := testloop.NewRaw(t, 16)
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", "-L", "userdata", raw.Dev).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v: %s", err, out)
	}
	trace, _ := writeTrace(t, 30)
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runMain("replay", trace, "--target", raw.Dev, "--out", out)
	wantOneLine(t, "replay without the flag", code, exitUsage, stderr, "--target "+raw.Dev+": the trace's requests write, which destroys what it holds: a file system (ext4")
	if strings.Contains(stderr, "--device") {
		t.Errorf("replay's refusal names --device: %q", stderr)
	}
	code, _, stderr = runMain("disk", "--device", raw.Dev, "--profile", "database", "--out", out)
	wantOneLine(t, "disk without the flag", code, exitUsage, stderr, `a file system (ext4, label "userdata")`)
	needFioBinary(t)
	code, _, stderr = runMain("replay", trace, "--target", raw.Dev, "--allow-device-writes", raw.Dev, "--asap", "--out", out)
	if code != 0 || !strings.Contains(stderr, "WARNING: --allow-device-writes "+raw.Dev+": it holds a file system (ext4") {
		t.Errorf("replay with the flag: exit %d, stderr %q; want a warning naming ext4", code, stderr)
	}
}

// TestRunOutExistingFile: run --out naming an existing 0600 file leaves it as it
// was until the first step is written (watched while the run goes), then replaces
// it keeping 0600; the temporary file a killed earlier run left beside it is
// removed, and no other file in the folder is touched.
func TestRunOutExistingFile(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	const mine = "the user's own file\n"
	if err := os.WriteFile(path, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	stale, keep := filepath.Join(dir, ".r.json.tmp-31337"), filepath.Join(dir, ".r.json.tmp-mine")
	for _, p := range []string{stale, keep} {
		if err := os.WriteFile(p, []byte(`{"format": 1, "la`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	type exit struct {
		code   int
		stderr string
	}
	done := make(chan exit, 1)
	go func() {
		code, _, stderr := runMain("run", "--db", dsn, "--users", "2,3", "--step", "3s", "--warmup", "1s", "--rate", "30", "--no-check", "--out", path)
		done <- exit{code, stderr}
	}()
	// Every version of the file seen while the run goes is the user's or one with a
	// step in it: a version without steps lasted the whole first step before.
	var ex exit
	for running := true; running; {
		select {
		case ex = <-done:
			running = false
		case <-time.After(20 * time.Millisecond):
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("the file went away during the run: %v", err)
		}
		if string(data) == mine {
			continue
		}
		r, err := results.Parse(data)
		if err != nil {
			t.Fatalf("the file holds neither the user's text nor a result: %v", err)
		}
		if len(r.Steps) == 0 {
			t.Fatal("the user's file was replaced before the run's first step")
		}
	}
	if ex.code != 0 {
		t.Fatalf("run: exit %d: %s", ex.code, ex.stderr)
	}
	if r, err := results.Read(path); err != nil || len(r.Steps) != 2 {
		t.Fatalf("after the run: %v, %+v", err, r)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after the run, want the file's 0600", fi.Mode().Perm())
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file of r.json is still there")
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file not named as brokerbench names its temporary files was removed: %v", err)
	}
}
