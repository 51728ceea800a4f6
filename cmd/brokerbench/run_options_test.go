package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/quickstart"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// cobraOptionsMap is how the result file's options were recorded before the run
// session: straight from the parsed command's flags. It stays here as the reference
// that optionsMap must reproduce.
func cobraOptionsMap(c *cobra.Command, shownDB string) map[string]any {
	out := map[string]any{}
	visit := func(f *pflag.Flag) {
		switch {
		case f.Name == "db":
			out["db"] = shownDB
		case strings.HasSuffix(f.Value.Type(), "Array"):
			if sv, ok := f.Value.(pflag.SliceValue); ok {
				out[f.Name] = sv.GetSlice()
			}
		default:
			out[f.Name] = f.Value.String()
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	delete(out, "help")
	return out
}

// asJSON is a map as the result file holds it.
func asJSON(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOptionsMapMatchesFlags: the options recorded from the options value are the
// ones the parsed `run` flags gave before, for defaults, flags and a config file.
func TestOptionsMapMatchesFlags(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(cfg, []byte("users: [2, 4]\nstep: 3s\ntag:\n  raid: \"5\"\nno-check: true\nrate: 12.5\nio-device: [sda=data, sdb=wal]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{},
		{"--users", "2,4", "--step", "4s", "--warmup", "1s", "--label", "H810 RAID10", "--tag", "controller=H810", "--tag", "raid=10", "--out", "x.json", "-q"},
		{"--think", "10ms", "--connections", "7", "--mee-workers", "9", "--seed", "42", "--metrics-addr", ":9090", "--io-interval", "2s", "--pgdata", "/tmp/x"},
		{"--config", cfg, "--label", "from-flag", "--think", "1ms"},
	} {
		g := &globalOptions{Console: session.Console{Stdout: &strings.Builder{}, Stderr: &strings.Builder{}}}
		root := newRootCommand(g)
		real, _, err := root.Find([]string{"run"})
		if err != nil {
			t.Fatal(err)
		}
		root.RemoveCommand(real)
		var o run.Options
		var old, got map[string]any
		c := &cobra.Command{Use: "run", RunE: func(c *cobra.Command, _ []string) error {
			if o.Config != "" {
				if err := applyConfigFile(c, o.Config); err != nil {
					return err
				}
			}
			old, got = cobraOptionsMap(c, "shown"), optionsMap(o, g, "shown")
			return nil
		}}
		bindRunFlags(c.Flags(), &o)
		root.AddCommand(c)
		root.SetArgs(append([]string{"run"}, args...))
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if a, b := asJSON(t, got), asJSON(t, old); a != b {
			t.Errorf("%v:\n got %s\nwant %s", args, a, b)
		}
	}
}

// TestQuickstartRunOptions: quickstart runs a `run`'s defaults but for its ramp,
// label, result file and storage interval.
func TestQuickstartRunOptions(t *testing.T) {
	qs := quickstart.Options{Users: "2,4", Step: 20 * time.Second, Warmup: 5 * time.Second, Run: defaultRunOptions()}
	now := time.Date(2026, 12, 1, 1, 2, 3, 0, time.UTC)
	want := defaultRunOptions()
	want.Users, want.Step, want.Warmup = "2,4", 20*time.Second, 5*time.Second
	want.Label, want.IOInterval, want.Out = "quickstart", 2*time.Second, "quickstart-20261201-010203.json"
	got := qs.RunOptions(now)
	if got.Record == nil {
		t.Error("quickstart's run does not record its options")
	}
	// Functions are never deeply equal: the record is checked above.
	got.Record, want.Record = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	qs.Out = "qs.json"
	if got := qs.RunOptions(now); got.Out != "qs.json" {
		t.Errorf("--out qs.json: %q", got.Out)
	}
}
