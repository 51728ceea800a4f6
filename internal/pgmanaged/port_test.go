package pgmanaged

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestPortKept: a kept cluster starts again on its port after a stop and after its
// postmaster was killed, so a URL handed out before still reaches it; only a port
// something else took meanwhile moves it.
func TestPortKept(t *testing.T) {
	t.Parallel()
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	dir := filepath.Join(reachableDir(t), "data")
	ctx := context.Background()
	c, err := Start(ctx, Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	port := c.Port
	t.Cleanup(func() { _ = c.Stop() })
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if c, err = Start(ctx, Options{DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	if c.Port != port {
		t.Errorf("after pg stop: port %d, was %d", c.Port, port)
	}

	// A crash: the postmaster is killed and leaves its state file behind.
	pm, err := c.PostmasterPID()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pm, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Until its parent (init) reaps it, the dead postmaster still counts as running
	// for pg_ctl.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pm)); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Skipf("the killed postmaster %d was not reaped within a minute", pm)
		}
	}
	if c, err = Start(ctx, Options{DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	if c.Port != port {
		t.Errorf("after a killed postmaster: port %d, was %d", c.Port, port)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}

	// Something else took the port: the cluster starts elsewhere.
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("hold port %d: %v", port, err)
	}
	defer l.Close()
	if c, err = Start(ctx, Options{DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	if c.Port == port {
		t.Errorf("started on port %d, which another listener holds", port)
	}
}
