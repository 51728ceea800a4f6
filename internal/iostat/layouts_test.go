package iostat

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

// EnvLayoutTest enables TestLayoutsEndToEnd: it needs root, loop devices, zram and a
// cgroup v1 blkio hierarchy, and takes minutes, so the regular suite never runs it.
const EnvLayoutTest = "BROKERBENCH_LAYOUT_TEST"

// TestLayoutsEndToEnd runs scripts/layouts.sh (the same short ramp on an emulated fast
// and slow disk layout) and checks what a user comparing two layouts must see: the
// slow layout has lower tps (at the first step, and at every step the load driver
// did not limit), and every step carries the storage figures of its device, with the
// slow device's writes slower.
func TestLayoutsEndToEnd(t *testing.T) {
	if os.Getenv(EnvLayoutTest) != "1" {
		t.Skipf("set %s=1 to run the emulated-layout test (root, loop devices, cgroup v1 blkio; several minutes)", EnvLayoutTest)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "layouts.sh"), "-o", out)
	var stderr bytes.Buffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 77 {
		t.Skipf("the machine cannot emulate the layouts: %s", lastLine(stderr.String()))
	}
	if err != nil {
		t.Fatalf("layouts.sh: %v\n%s", err, stderr.String())
	}
	t.Log(stderr.String())
	fast, err := results.Read(filepath.Join(out, "fast.json"))
	if err != nil {
		t.Fatal(err)
	}
	slow, err := results.Read(filepath.Join(out, "slow.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fast.Steps) == 0 || len(fast.Steps) != len(slow.Steps) {
		t.Fatalf("steps: fast %d, slow %d", len(fast.Steps), len(slow.Steps))
	}
	for i := range fast.Steps {
		f, s := fast.Steps[i], slow.Steps[i]
		if f.IO == nil || s.IO == nil || f.IO.Source != SourceDiskstats || s.IO.Source != SourceDiskstats {
			t.Fatalf("step %d users: no diskstats figures (fast %+v, slow %+v)", f.Users, f.IO, s.IO)
		}
		t.Logf("%d users: fast %.1f tps, %.0f w/s, w_await %.2f ms on %s | slow %.1f tps, %.0f w/s, w_await %.2f ms on %s",
			f.Users, f.TPS, f.IO.WriteIOPS, f.IO.WriteAwaitMS, devNames(f.IO), s.TPS, s.IO.WriteIOPS, s.IO.WriteAwaitMS, devNames(s.IO))
		// On a busy small machine the load driver itself can limit a step (flagged in
		// the result); tps then says little about the disks, latency still does.
		if (i == 0 || (!f.Driver.Bottleneck && !s.Driver.Bottleneck)) && s.TPS >= f.TPS {
			t.Errorf("%d users: the throttled layout was not slower: %.1f tps vs %.1f", f.Users, s.TPS, f.TPS)
		}
		if s.IO.WriteIOPS <= 0 || f.IO.WriteIOPS <= 0 {
			t.Errorf("%d users: no write IOPS recorded (fast %.1f, slow %.1f)", f.Users, f.IO.WriteIOPS, s.IO.WriteIOPS)
		}
		if s.IO.WriteAwaitMS <= f.IO.WriteAwaitMS {
			t.Errorf("%d users: slow layout's write latency %.2f ms not above the fast one's %.2f ms", f.Users, s.IO.WriteAwaitMS, f.IO.WriteAwaitMS)
		}
	}
}

func devNames(io *results.StepIO) string {
	var n []string
	for _, d := range io.Devices {
		n = append(n, d.Name+"("+d.Role+")")
	}
	return strings.Join(n, ",")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
