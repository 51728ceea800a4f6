package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/session/run"
	"github.com/spf13/pflag"
)

// FuzzRunFlags: whatever --rate, --think and --reconnect-grace are given, the run's
// flags either fail to parse or fail the range check with a usage error, or hold a
// finite value within the documented range; planning never panics.
func FuzzRunFlags(f *testing.F) {
	for _, s := range [][3]string{
		{"NaN", "1s", "10s"}, {"Inf", "0", "1s"}, {"-Inf", "1ms", "1h"}, {"1e308", "1s", "1s"}, {"1e6", "168h", "1s"},
		{"1000001", "169h", "0"}, {"0x1p-2", "-1s", "-5s"}, {"1_000", "2562047h", "9223372036854775807ns"}, {"+nan", "1.5h", "1e3s"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, rate, think, grace string) {
		var o run.Options
		fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
		fs.SetOutput(discard{})
		bindRunFlags(fs, &o)
		if fs.Parse([]string{"--rate=" + rate, "--think=" + think, "--reconnect-grace=" + grace}) != nil {
			return
		}
		if err := checkNumericFlags(fs); err != nil {
			if exitCode(err) != exitUsage {
				t.Fatalf("%v: exit %d, want a usage error", err, exitCode(err))
			}
			return
		}
		if math.IsNaN(o.Rate) || math.IsInf(o.Rate, 0) || math.Abs(o.Rate) > flagMax["rate"] {
			t.Fatalf("--rate %q passed as %v", rate, o.Rate)
		}
		for _, d := range []float64{o.Think.Hours(), o.LostGrace.Hours()} {
			if math.Abs(d) > maxDurationFlag.Hours() {
				t.Fatalf("--think %q / --reconnect-grace %q passed as %v", think, grace, d)
			}
		}
		_, _ = run.New(&globalOptions{}, o)
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestFlagRanges: out-of-range numbers are usage errors naming the flag, on the
// command line of every command and in run's --config file; the issue's --rate NaN
// ran and recorded "rate": "NaN".
func TestFlagRanges(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(cfg, []byte("rate: .inf\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := "postgres://nobody@127.0.0.1:1/none"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--db", db, "--rate", "NaN"}, "--rate NaN"},
		{[]string{"run", "--db", db, "--rate", "Inf"}, "--rate +Inf"},
		{[]string{"run", "--db", db, "--rate", "1e308"}, "--rate 1e+308"},
		{[]string{"run", "--db", db, "--growth", "NaN", "--find-max"}, "--growth NaN"},
		{[]string{"run", "--db", db, "--step", "100000h"}, "--step"},
		{[]string{"run", "--db", db, "--config", cfg}, "--rate +Inf"},
		{[]string{"load", "--db", db, "--workers", "100000000"}, "--workers 100000000"},
		{[]string{"quickstart", "--warmup", "9999h"}, "--warmup"},
	} {
		code, _, stderr := runMain(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q", tc.args, code, stderr, tc.want)
		}
	}
}
