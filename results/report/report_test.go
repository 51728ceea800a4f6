package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

func TestWriteReport(t *testing.T) {
	r := runfixture.SampleRun("H810 RAID10", []int{50, 100, 150}, 1, 1, 5)
	r.Steps[2].TPS = r.Steps[1].TPS * 1.02 // knee after 100 users
	r.Steps[2].Partial = true
	r.Steps[0].Driver.Bottleneck = true
	var buf bytes.Buffer
	if err := WriteReport(&buf, results.Input{Path: "h810.json", Run: r}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, s := range []string{
		"H810 RAID10 (h810.json)", "read IOPS", "flags",
		"K: knee at 100 users", "P: partial step", "D: the load driver",
		"150 users, 50 s measured after 10 s warm-up", "Trade-Result", "rollbacks",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	lines := strings.Split(out, "\n")
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) > 1 && f[0] == "100" && f[1] != "users," && f[len(f)-1] != "K" {
			t.Errorf("100-user row not flagged as knee: %q", l)
		}
	}
}
