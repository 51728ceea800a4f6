package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/session/run"
	"github.com/spf13/cobra"
)

// TestOldFlagNameInConfig: a --config file written with --emulator-workers' old name
// still sets it, says the new name, and loses to the flag given on the command line.
func TestOldFlagNameInConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(cfg, []byte("mee-workers: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 9},
		{[]string{"--emulator-workers", "5"}, 5},
		{[]string{"--mee-workers", "6"}, 6},
	} {
		var o run.Options
		c := &cobra.Command{Use: "run"}
		bindRunFlags(c.Flags(), &o)
		var errb strings.Builder
		c.SetErr(&errb)
		if err := c.Flags().Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if err := applyConfigFile(c, cfg); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if o.EmulatorWorkers != tc.want || !strings.Contains(errb.String(), "mee-workers is an old name of emulator-workers") {
			t.Errorf("%v: emulator workers %d, want %d; stderr %q", tc.args, o.EmulatorWorkers, tc.want, errb.String())
		}
	}
}
