package pgmanaged

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestStartStop starts a real temporary cluster, talks to it with psql when present,
// checks that other local users are locked out of it, and that Stop removes it. (One
// cluster for both: initdb is most of what a cluster costs.)
func TestStartStop(t *testing.T) {
	t.Parallel()
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	c, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Port == 0 || !c.Temporary() {
		t.Fatalf("port %d temporary %v", c.Port, c.Temporary())
	}
	if psql, err := exec.LookPath("psql"); err == nil {
		out, err := exec.Command(psql, c.URL(""), "-Atc", "show max_connections").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "500" {
			t.Errorf("psql: %v %q", err, out)
		}
	}
	t.Run("OtherUsersLockedOut", func(t *testing.T) { testOtherUsersLockedOut(t, c) })
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := Attach(c.DataDir); err == nil {
		t.Error("attach after stop succeeded")
	}
}

func TestVersionOf(t *testing.T) {
	for in, want := range map[string]int{"/usr/lib/postgresql/15/bin": 15, "/usr/pgsql-16/bin": 16, "/usr/local/pgsql/bin": 0} {
		if got := versionOf(in); got != want {
			t.Errorf("versionOf(%q) = %d, want %d", in, got, want)
		}
	}
}
