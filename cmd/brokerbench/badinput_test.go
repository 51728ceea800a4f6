package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session/run"
)

// TestBadInputEveryFlag runs the invalid forms of every command's flags through the
// real command line: each ends in one clear line and exit 2 (usage) or 1 (runtime),
// never a panic or a stack trace, and never echoes a password.
func TestBadInputEveryFlag(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format": 1, "steps": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	wrongFormat := filepath.Join(dir, "format9.json")
	if err := os.WriteFile(wrongFormat, []byte(`{"format": 9, "steps": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const secret = "Hunter2SecretPw"
	unreachable := "postgres://bench:" + secret + "@127.0.0.1:1/bench?connect_timeout=2"
	for _, tc := range []struct {
		args []string
		code int
		say  string // a word the one line must contain
	}{
		{[]string{"nosuchcommand"}, 2, "unknown command"},
		{[]string{"load", "--customers", "1500"}, 2, "1000"},
		{[]string{"load", "--customers", "0"}, 2, "customers"},
		{[]string{"load", "--customers", "-1000"}, 2, "customers"},
		{[]string{"load", "--customers", "many"}, 2, "customers"},
		{[]string{"load", "--trade-days", "4"}, 2, "trade"},
		{[]string{"load", "--trade-days", "x"}, 2, "trade-days"},
		{[]string{"load", "--workers", "0"}, 2, "workers"},
		{[]string{"load", "--workers", "-3"}, 2, "workers"},
		{[]string{"load", "--seed", "-1"}, 2, "seed"},
		{[]string{"load", "--bogus"}, 2, "bogus"},
		{[]string{"load", "--engine", "oracle"}, 2, "engine"},
		{[]string{"load", "--engine", "mariadb", "--pgdata", dir}, 2, "pgdata"},
		{[]string{"load", "--db", "mysql://bench:" + secret + "@127.0.0.1:1/bench?connect_timeout=x"}, 2, "connect_timeout"},
		{[]string{"load", "extra-arg"}, 2, ""},
		{[]string{"run", "--users", ""}, 2, "users"},
		{[]string{"run", "--users", "0"}, 2, "users"},
		{[]string{"run", "--users", "-5"}, 2, "users"},
		{[]string{"run", "--users", "300:50:50"}, 2, "users"},
		{[]string{"run", "--users", "50:300:0"}, 2, "users"},
		{[]string{"run", "--users", "a,b"}, 2, "users"},
		{[]string{"run", "--users", "10,,20"}, 2, "users"},
		{[]string{"run", "--step", "0s"}, 2, "step"},
		{[]string{"run", "--step", "fast"}, 2, "step"},
		{[]string{"run", "--warmup", "-1s"}, 2, "warmup"},
		{[]string{"run", "--step", "10s", "--warmup", "10s"}, 2, "warmup"},
		{[]string{"run", "--think", "-1s"}, 2, "think"},
		{[]string{"run", "--rate", "-5"}, 2, "rate"},
		{[]string{"run", "--connections", "-1"}, 2, "connections"},
		{[]string{"run", "--tag", "novalue"}, 2, "tag"},
		{[]string{"run", "--io-interval", "0s"}, 2, "interval"},
		{[]string{"run", "--config", filepath.Join(dir, "missing.yaml")}, 2, "missing.yaml"},
		{[]string{"run", "--io-interval", "-1s"}, 2, "interval"},
		{[]string{"run", "--capture-io", dir, "--io-device", "none"}, 2, "--capture-io"},
		{[]string{"run", "--capture-io", dir, "--io-node-exporter", "http://127.0.0.1:1/metrics"}, 2, "--capture-io"},
		{[]string{"run", "--emulator-workers", "-1"}, 2, "emulator-workers"},
		{[]string{"run", "--mee-workers", "-1"}, 2, "emulator-workers"}, // the old name, an alias
		{[]string{"run", "--seed", "-1"}, 2, "seed"},
		{[]string{"run", "--connections", "x"}, 2, "connections"},
		{[]string{"run", "--rate", "abc"}, 2, "rate"},
		{[]string{"run", "--pace", "fast"}, 2, "pace"},
		{[]string{"run", "--pace", "nominal", "--think", "1s"}, 2, "pace"},
		{[]string{"run", "--pace", "nominal", "--rate", "40"}, 2, "pace"},
		{[]string{"run", "--pace", "nominal", "--users", "8", "--find-max"}, 2, "pace"},
		{[]string{"run", "--think", "x"}, 2, "think"},
		{[]string{"run", "--shard", "3/3"}, 2, "--shard"},
		{[]string{"run", "--repeat", "0"}, 2, "--repeat"},
		{[]string{"run", "--repeat", "2", "--shard", "0/2"}, 2, "--repeat"},
		{[]string{"run", "--repeat-cold"}, 2, "--repeat-cold"},
		{[]string{"run", "--settle", "soon"}, 2, "--settle takes auto, off or a duration"},
		{[]string{"run", "--settle", "-1m"}, 2, "--settle must not be negative"},
		{[]string{"run", "--settle", "20s", "--warmup", "5s", "--step", "1m"}, 2, "shorter than the 6 windows of 5s"},
		{[]string{"run", "--settle", "5m", "--shard", "0/2"}, 2, "--settle cannot be combined with --shard"},
		{[]string{"compare", "a.json", "b.json", "--"}, 2, "side 2 has no file"},
		{[]string{"compare", "--fail-if", "tps<5 significant", "a.json", "b.json"}, 2, "significant"},
		{[]string{"run", "--shard", "1"}, 2, "--shard"},
		{[]string{"run", "--shard", "-1/2"}, 2, "--shard"},
		{[]string{"run", "--shard", "0/0"}, 2, "--shard"},
		{[]string{"run", "--shard", "x/y"}, 2, "--shard"},
		{[]string{"run", "--shard", "0/2", "--users", "8", "--find-max"}, 2, "find-max"},
		{[]string{"run", "--start-at", "tomorrow"}, 2, "start-at"},
		{[]string{"run", "--start-at", "2020-01-01T00:00:00Z"}, 2, "in the past"},
		{[]string{"run", "--start-at", "2099-01-01T00:00:00Z", "--users", "8", "--find-max"}, 2, "find-max"},
		{[]string{"run", "--metrics-addr", "127.0.0.1:99999"}, 2, "metrics-addr"},
		{[]string{"run", "--metrics-addr", "127.0.0.1:http:9"}, 2, "metrics-addr"},
		{[]string{"quickstart", "--users", "0"}, 2, "users"},
		{[]string{"quickstart", "--step", "0s"}, 2, "step"},
		{[]string{"quickstart", "--step", "5s", "--warmup", "5s"}, 2, "warmup"},
		{[]string{"--quiet=maybe", "check"}, 2, "quiet"},
		{[]string{"check", "extra"}, 2, "extra"},
		// Several files are repeats of one run (run --repeat); missing ones are a runtime error.
		{[]string{"report", "a.json", "b.json"}, 1, "no such file"},
		{[]string{"report"}, 2, ""},
		{[]string{"report", filepath.Join(dir, "missing.json")}, 1, "missing.json"},
		{[]string{"report", corrupt}, 1, "corrupt.json"},
		{[]string{"report", wrongFormat}, 1, "format"},
		{[]string{"compare", corrupt}, 2, ""},
		{[]string{"compare", corrupt, corrupt}, 1, "corrupt.json"},
		{[]string{"compare", "--fail-if", "tps<<3", corrupt, corrupt}, 2, "tps<<3"},
		{[]string{"compare", "--fail-if", "nosuchmetric>1", corrupt, corrupt}, 2, "nosuchmetric"},
		{[]string{"schema", "--database", "oracle"}, 2, "oracle"},
		{[]string{"pg", "start"}, 2, "pgdata"},
		{[]string{"pg"}, 2, "subcommand"},
		{[]string{"pg", "bogus"}, 2, "bogus"},
		{[]string{"pg", "status", "--pgdata", filepath.Join(dir, "nocluster")}, 1, "no managed PostgreSQL"},
		{[]string{"--db", unreachable, "check"}, 1, "127.0.0.1:1"},
		{[]string{"--db", unreachable, "load", "--customers", "1000", "--trade-days", "5"}, 1, "127.0.0.1:1"},
		{[]string{"--db", unreachable, "run", "--users", "1", "--step", "2s", "--warmup", "1s", "--out", filepath.Join(dir, "r.json")}, 1, "127.0.0.1:1"},
		{[]string{"--db", "postgres://bench:" + secret + "@[::1", "check"}, 2, "invalid PostgreSQL DSN"},
		{[]string{"run", "--server-memory", "lots"}, 2, "server-memory"},
		{[]string{"run", "--server-memory", "10MB"}, 2, "below"},
		{[]string{"--engine", "mariadb", "quickstart", "--server-memory", "150MB"}, 2, "the managed MariaDB needs"},
		{[]string{"quickstart", "--server-memory", "-1GB"}, 2, "server-memory"},
		{[]string{"pg", "start", "--pgdata", filepath.Join(dir, "pgx"), "--server-memory", "1XB"}, 2, "server-memory"},
		{[]string{"--db", unreachable, "run", "--server-memory", "256MB", "--users", "1", "--step", "2s", "--warmup", "1s"}, 2, "caps a managed server only"},
		{[]string{"--db", unreachable, "load", "--server-memory", "1GB"}, 2, "caps a managed server only"},
		{[]string{"--db", unreachable, "quickstart", "--server-memory", "1GB"}, 2, "caps a managed server only"},
		{[]string{"--db", "sqlserver://sa:" + secret + "@127.0.0.1:1?database=x&dial+timeout=2&connection+timeout=2", "check"}, 1, "127.0.0.1"},
		{[]string{"--db", "mysql://bench:" + secret + "@127.0.0.1:1/bench?connect_timeout=2", "check"}, 1, "127.0.0.1:1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(tc.args, &out, &errb)
			all := out.String() + errb.String()
			if code != tc.code {
				t.Errorf("exit %d, want %d; output: %q", code, tc.code, all)
			}
			msg := strings.TrimSpace(errb.String())
			lines := strings.Split(msg, "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "brokerbench: ") {
				t.Errorf("last line %q is not the one-line error", last)
			}
			if tc.say != "" && !strings.Contains(strings.ToLower(last), strings.ToLower(tc.say)) {
				t.Errorf("error line %q does not mention %q", last, tc.say)
			}
			for _, bad := range []string{"panic", "goroutine ", ".go:", secret} {
				if strings.Contains(all, bad) {
					t.Errorf("output contains %q: %q", bad, all)
				}
			}
		})
	}
}

// TestBoundedReads: a file a person names that never ends (/dev/zero as --config,
// as a disk profile file, as a capture's capture.json, as a trace) is refused with
// one line once past its bound, without holding it in memory: before, --config
// /dev/zero grew to 1.5 GB. Not parallel, so the allocation counted is this test's.
func TestBoundedReads(t *testing.T) {
	capture := t.TempDir()
	trace, _ := writeTrace(t, 30)
	if err := os.Symlink(trace, filepath.Join(capture, captureTraceFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(capture, captureSummaryFile)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--config", "/dev/zero"}, "--config /dev/zero: larger than 1024 KiB"},
		{[]string{"disk", "--list", "--profile-file", "/dev/zero"}, "profile file /dev/zero: larger than 1024 KiB"},
		{[]string{"replay", capture, "--target", filepath.Join(t.TempDir(), "t.dat"), "--out", out}, "capture.json: larger than 1024 KiB"},
		{[]string{"replay", "/dev/zero", "--target", filepath.Join(t.TempDir(), "t.dat"), "--out", out}, "not a fio iolog version 3 trace"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, _, stderr := runMain(tc.args...)
		runtime.ReadMemStats(&after)
		wantOneLine(t, strings.Join(tc.args, " "), code, exitUsage, stderr, tc.want)
		if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
			t.Errorf("%v allocated %d MB to refuse it", tc.args, got>>20)
		}
	}
}

// TestPlanFitsResultFile: a plan whose result file report could not read is refused
// before anything starts, with the numbers: more steps than a file holds, or steps
// whose per-second samples add up past its size.
func TestPlanFitsResultFile(t *testing.T) {
	t.Parallel()
	levels := make([]string, results.MaxSteps+1)
	for i := range levels {
		levels[i] = strconv.Itoa(1 + i%300)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"10,001 levels", []string{"run", "--users", strings.Join(levels, ","), "--step", "2s", "--warmup", "1s"}, "10001 user levels: a result file holds at most 10000 steps, the most report reads"},
		{"find-max 10000 probes", []string{"run", "--users", "8", "--find-max", "--max-steps", "10000"}, "--find-max --max-steps 10000 of --step 5m: the result file would reach at least"},
		{"300 levels of 10 minutes", []string{"run", "--users", "1:300:1", "--step", "10m"}, "300 user levels of --step 10m"},
	} {
		code, _, stderr := runMain(tc.args...)
		wantOneLine(t, tc.name, code, exitUsage, stderr, tc.want)
	}
	// The defaults and a long ramp of short steps still fit.
	for _, users := range []string{"50:300:50", "1:1000:1"} {
		o := defaultRunOptions()
		o.Users = users
		if users == "1:1000:1" {
			o.Step, o.Warmup = 20*time.Second, 5*time.Second
		}
		if _, err := run.New(&globalOptions{}, o); err != nil {
			t.Errorf("--users %s --step %s: %v", users, o.Step, err)
		}
	}
}
