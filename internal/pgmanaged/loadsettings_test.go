package pgmanaged

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadSettingsLifecycle: BeginLoad restarts the server with the load settings on top
// of the cluster's own, EndLoad restarts it with its own again, and a load settings file
// left by a killed load is gone after the next start. Then the refusal: a server that
// cannot start with the load settings (archive_mode = on refuses wal_level = minimal)
// is back up with its own settings and BeginLoad says why. One cluster serves both
// (initdb is most of what a cluster costs); the test owns it, and every step restarts it.
func TestLoadSettingsLifecycle(t *testing.T) {
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	ctx := context.Background()
	dir := filepath.Join(reachableDir(t), "pg")
	c, err := Start(ctx, Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	psql := psqlClient(t, c)
	show := func(name string) string {
		t.Helper()
		out, err := psqlAs(psql, "", nil, "-d", c.URL("postgres"), "-c", "SHOW "+name)
		if err != nil {
			t.Fatalf("SHOW %s: %v %s", name, err, out)
		}
		return strings.TrimSpace(out)
	}
	if got := show("wal_level"); got != "replica" {
		t.Fatalf("wal_level before the load = %q, want replica", got)
	}
	if err := c.BeginLoad(ctx, LoadSettings()); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"wal_level": "minimal", "max_wal_senders": "0", "autovacuum": "off",
		"max_connections": "500"} { // the cluster's own settings stay under the load's
		if got := show(name); got != want {
			t.Errorf("during the load %s = %q, want %q", name, got, want)
		}
	}
	if err := c.EndLoad(true); err != nil {
		t.Fatal(err)
	}
	if got := show("wal_level"); got != "replica" {
		t.Errorf("wal_level after the load = %q, want replica", got)
	}
	if got := show("autovacuum"); got != "on" {
		t.Errorf("autovacuum after the load = %q, want on", got)
	}

	// A load killed between the two: the next start drops its settings.
	if err := c.BeginLoad(ctx, LoadSettings()); err != nil {
		t.Fatal(err)
	}
	if err := c.stopServer(); err != nil {
		t.Fatal(err)
	}
	if c, err = Start(ctx, Options{DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	if got := show("wal_level"); got != "replica" {
		t.Errorf("wal_level after a start that followed a killed load = %q, want replica", got)
	}
	if _, err := os.Stat(filepath.Join(c.DataDir, loadConf)); !os.IsNotExist(err) {
		t.Errorf("%s still present after a start: %v", loadConf, err)
	}

	// The same cluster started again with archive_mode = on: the load settings are refused.
	if err := c.stopServer(); err != nil {
		t.Fatal(err)
	}
	if c, err = Start(ctx, Options{DataDir: dir, Settings: map[string]string{"archive_mode": "on", "archive_command": "'true'"}}); err != nil {
		t.Fatal(err)
	}
	if got := show("archive_mode"); got != "on" {
		t.Fatalf("archive_mode = %q after a start with it on", got)
	}
	if err := c.BeginLoad(ctx, LoadSettings()); err == nil || !strings.Contains(err.Error(), "load settings") {
		t.Fatalf("BeginLoad with archive_mode = on: %v, want a refusal", err)
	}
	out, err := psqlAs(psql, "", nil, "-d", c.URL("postgres"), "-c", "SHOW wal_level")
	if err != nil || strings.TrimSpace(out) != "replica" {
		t.Errorf("after the refused settings: %v %q, want the server up with wal_level replica", err, out)
	}
	if _, err := os.Stat(filepath.Join(c.DataDir, loadConf)); !os.IsNotExist(err) {
		t.Errorf("%s still present after the refusal: %v", loadConf, err)
	}
}
