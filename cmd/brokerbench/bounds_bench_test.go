package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// maxCommandRSS is what report, compare and merge may take on the largest input the
// format allows, or on one beyond it (refused): the bound docs/result-format.md
// promises, with room for the runtime.
const maxCommandRSS = 1 << 30

// BenchmarkHugeInputs runs report, compare and merge as processes of their own on the
// issue's inputs, a result file with a 200 MB label and one of 10,000 steps, and
// reports each one's peak RSS (maxrss-MB) and exit code; an RSS over maxCommandRSS
// fails it. Before the bounds, compare on the label wrote 2.8 GB in 24 minutes at
// 816 MB RSS; report --html peaked at 2.5 GB.
//
//	go test ./cmd/brokerbench/ -run '^$' -bench HugeInputs -benchtime 1x
func BenchmarkHugeInputs(b *testing.B) {
	dir := b.TempDir()
	label := filepath.Join(dir, "label.json")
	writeHugeLabel(b, label, 200<<20)
	steps := filepath.Join(dir, "steps.json")
	writeManySteps(b, steps, results.MaxSteps)
	small := writeRun(b, dir, "small.json", "small", 1, 1)
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"report-label", []string{"report", label}, exitRuntime},
		{"compare-label", []string{"compare", small, label}, exitRuntime},
		{"report-html-label", []string{"report", label, "--html", filepath.Join(dir, "l.html")}, exitRuntime},
		{"report-10000-steps", []string{"report", steps}, exitOK},
		{"report-html-10000-steps", []string{"report", steps, "--html", filepath.Join(dir, "s.html")}, exitOK},
		{"compare-10000-steps", []string{"compare", steps, steps}, exitOK},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				code, rss, took := runChildRSS(b, c.args)
				if code != c.code {
					b.Fatalf("exit %d, want %d", code, c.code)
				}
				b.ReportMetric(float64(rss)/(1<<20), "maxrss-MB")
				b.ReportMetric(took.Seconds(), "s/run")
				if rss > maxCommandRSS {
					b.Errorf("peak RSS %d MB, over the %d MB bound", rss>>20, maxCommandRSS>>20)
				}
			}
		})
	}
}

// runChildRSS runs brokerbench (this test binary as TestFaultChild) with args and
// returns its exit code, peak RSS in bytes and wall time.
func runChildRSS(b *testing.B, args []string) (int, int64, time.Duration) {
	enc, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(enc))
	start := time.Now()
	_ = cmd.Run()
	took := time.Since(start)
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		b.Skip("no rusage")
	}
	return cmd.ProcessState.ExitCode(), ru.Maxrss << 10, took
}

// writeHugeLabel writes a result file whose label is n bytes, streamed.
func writeHugeLabel(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"format": 1, "label": "`)
	chunk := strings.Repeat("A", 1<<20)
	for i := 0; i < n>>20; i++ {
		w.WriteString(chunk)
	}
	w.WriteString(`", "steps": []}` + "\n")
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// writeManySteps writes a result file of n steps with every transaction's figures
// (no histograms: the file stays within MaxFileBytes).
func writeManySteps(b *testing.B, path string, n int) {
	r := &results.Run{Format: results.FormatVersion, Label: "many", StartedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	for i := range n {
		txns := map[string]results.TxnStats{}
		for k, name := range []string{"Trade-Order", "Trade-Result", "Market-Feed", "Trade-Status"} {
			txns[name] = results.TxnStats{Count: int64(100 + k), Share: 0.25, AvgMS: 5, P50MS: 4, P90MS: 9, P95MS: 11, P99MS: 20, MaxMS: 40}
		}
		r.Steps = append(r.Steps, results.Step{Users: 1 + i%300, StartedAt: r.StartedAt.Add(time.Duration(i) * time.Minute),
			WarmupS: 10, MeasuredS: 50, TPS: 8, TPSE: 2, Transactions: txns})
	}
	if err := results.Write(path, r); err != nil {
		b.Fatal(err)
	}
}
