package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
)

// TestSecretNodeExporterURL: a password in --io-node-exporter's URL (userinfo and a
// token parameter) never reaches stdout, stderr, the result file or report --json:
// neither when the exporter answers and the run completes, nor when it cannot be
// reached and the run fails after writing its file.
func TestSecretNodeExporterURL(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	secret := "Pw" + hex.EncodeToString(b)
	for _, tc := range []struct {
		name, addr string
		wantExit   int
	}{
		{"unreachable", "127.0.0.1:9", exitUsage},
		{"answering", startExporter(t), exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run.json")
			url := fmt.Sprintf("http://bench:%s@%s/metrics?token=%s", secret, tc.addr, secret)
			code, stdout, stderr := runMain("run", "--db", dsn, "--users", "1", "--step", "2s", "--warmup", "1s", "--rate", "20",
				"--io-node-exporter", url, "--no-check", "--out", out)
			if code != tc.wantExit {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.wantExit, stdout, stderr)
			}
			file, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("the result file: %v", err)
			}
			rcode, report, rerr := runMain("report", out, "--json")
			if rcode != exitOK {
				t.Fatalf("report --json: exit %d: %s", rcode, rerr)
			}
			for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "the result file": string(file), "report --json": report + rerr} {
				if strings.Contains(text, secret) {
					t.Errorf("the URL's password is in %s", what)
				}
			}
			if !strings.Contains(string(file), "bench:xxxxx@"+tc.addr) {
				t.Errorf("the result file does not record the URL redacted")
			}
		})
	}
}

// startExporter runs the machine's node_exporter on a free loopback port until the
// test ends and returns its address once it answers; it skips the test when none
// is installed (outside CI).
func startExporter(t *testing.T) string {
	t.Helper()
	var bin string
	for _, name := range []string{"node_exporter", "prometheus-node-exporter"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no node_exporter is installed")
		}
		t.Skip("no node_exporter installed (Debian: prometheus-node-exporter)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--web.listen-address="+addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err == nil {
			resp.Body.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("node_exporter did not answer within a minute: %v", err)
		}
	}
}
