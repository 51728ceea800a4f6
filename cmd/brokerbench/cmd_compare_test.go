package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

// writeRun writes a two-step result file whose figures scale with speed (tps,
// IOPS) and slow (response times), and returns its path.
func writeRun(t testing.TB, dir, name, label string, speed, slow float64) string {
	t.Helper()
	r := &results.Run{Format: results.FormatVersion, Label: label, Tags: map[string]string{"raid": "10"}}
	for _, u := range []int{2, 4} {
		txns := map[string]results.TxnStats{}
		for k, txn := range []string{"Trade-Order", "Trade-Result"} {
			resp := results.NewHistogram()
			for i := 0; i < 200*u; i++ {
				_ = resp.RecordValue(int64(float64((k+1)*1000+i*10) * slow))
			}
			txns[txn] = results.Summarize(resp, nil, 0, 0, 0)
		}
		results.SetShares(txns)
		r.Steps = append(r.Steps, results.Step{Users: u, TPS: 40 * float64(u) * speed, TPSE: 10 * float64(u) * speed,
			MeasuredS: 30, Transactions: txns,
			IO: &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: 100 * speed, WriteIOPS: 300 * speed}}})
	}
	p := filepath.Join(dir, name)
	if err := results.Write(p, r); err != nil {
		t.Fatal(err)
	}
	return p
}

func runMain(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCompareExitCodes(t *testing.T) {
	dir := t.TempDir()
	base := writeRun(t, dir, "base.json", "baseline", 1, 1)
	same := writeRun(t, dir, "same.json", "same", 1.02, 1.05)
	worse := writeRun(t, dir, "worse.json", "worse", 0.85, 1.3)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"pass", []string{"compare", base, same, "--fail-if", "tps<-10%", "--fail-if", "p95>+20%"}, 0,
			[]string{"same vs baseline at 4 users: tps +2 %", "none tripped"}, nil},
		{"trip", []string{"compare", base, worse, "--fail-if", "tps<-10%", "--fail-if", "p95>+20%", "--fail-if", "errors>0"}, 3,
			[]string{"TRIPPED run worse at 2 users: tps -15.0 % < -10 %", "TRIPPED run worse at 4 users: p95"},
			[]string{"4 --fail-if gate(s) tripped", "run worse at 4 users: tps -15.0 % < -10 %"}},
		{"absolute txn gate", []string{"compare", base, worse, "--fail-if", "trade-result.p90>2s"}, 0, nil, nil},
		{"absolute txn gate trips", []string{"compare", base, worse, "--fail-if", "trade-result.p90>1ms"}, 3, nil,
			[]string{"trade-result.p90"}},
		{"gate on an unknown figure warns", []string{"compare", base, same, "--fail-if", "io_per_txn>+10%", "--fail-if", "p99>+50%"}, 0,
			[]string{`WARNING --fail-if "io_per_txn>+10%" was checked nowhere`, "none tripped"}, nil},
		{"significant gate cannot judge", []string{"compare", base, worse, "--fail-if", "tps<-10% significant"}, 4,
			[]string{`UNJUDGED run worse at 2, 4 users: --fail-if "tps<-10% significant" cannot judge tps: a step has no per-second samples`},
			[]string{"1 --fail-if gate(s) could not judge (--allow-unjudged lets them pass)", "cannot judge tps"}},
		{"verdict gate cannot judge", []string{"compare", base, worse, "--fail-if", "p95 worse"}, 4,
			[]string{`UNJUDGED run worse at 2, 4 users: --fail-if "p95 worse" cannot judge p95`}, nil},
		{"unjudged allowed", []string{"compare", base, worse, "--fail-if", "tps<-10% significant", "--allow-unjudged"}, 0,
			[]string{`UNJUDGED (allowed) run worse at 2, 4 users: --fail-if "tps<-10% significant" cannot judge tps`}, nil},
		{"a trip outranks an unjudged gate", []string{"compare", base, worse, "--fail-if", "tps<-10%", "--fail-if", "tps worse"}, 3,
			[]string{"TRIPPED run worse at 2 users", `UNJUDGED run worse at 2, 4 users: --fail-if "tps worse"`}, nil},
		{"bad gate", []string{"compare", base, same, "--fail-if", "tps<<5"}, 2, nil, []string{`--fail-if "tps<<5"`}},
		{"unknown metric", []string{"compare", base, same, "--fail-if", "latency>5"}, 2, nil, []string{`unknown metric "latency"`}},
		{"unknown transaction", []string{"compare", base, same, "--fail-if", "trade-lookup.p95>1s"}, 2, nil, []string{`no transaction "trade-lookup"`}},
		{"one file", []string{"compare", base}, 2, nil, nil},
		{"missing file", []string{"compare", base, filepath.Join(dir, "nope.json")}, 1, nil, []string{"nope.json: no such file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runMain(c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errs)
			}
			for _, s := range c.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errs)
				}
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("stderr is more than one line:\n%s", errs)
			}
		})
	}
}

func TestCompareWritesHTMLAndCSV(t *testing.T) {
	dir := t.TempDir()
	base := writeRun(t, dir, "base.json", "baseline", 1, 1)
	other := writeRun(t, dir, "other.json", "other", 1.2, 0.9)
	html, csv := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.csv")
	if code, out, errs := runMain("compare", base, other, "--html", html, "--csv", csv); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	h, err := os.ReadFile(html)
	if err != nil || bytes.Count(h, []byte("<svg")) < 3 {
		t.Fatalf("html: %v, %d charts", err, bytes.Count(h, []byte("<svg")))
	}
	c, err := os.ReadFile(csv)
	if err != nil || strings.Count(string(c), "\n") != 5 { // header + 2 runs × 2 steps
		t.Fatalf("csv: %v\n%s", err, c)
	}
}

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	p := writeRun(t, dir, "run.json", "H810", 1, 1)
	code, out, errs := runMain("report", p, "--csv", "-", "--html", filepath.Join(dir, "r.html"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"H810 (", "Trade-Result", "file,label,users"} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q:\n%s", s, out)
		}
	}
	code, out, _ = runMain("report", p, "--json")
	var r results.Run
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Label != "H810" || len(r.Steps) != 2 {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n\"format\": 1,\n\"steps\": [}"), 0o644)
	code, _, errs = runMain("report", bad)
	if code != 1 || !strings.Contains(errs, "bad.json:3:") {
		t.Fatalf("corrupt file: exit %d, %q", code, errs)
	}
}

// TestReportRepeats: report given several files of one configuration shows each
// figure's spread over them, and draws box plots in HTML.
func TestReportRepeats(t *testing.T) {
	dir := t.TempDir()
	a := writeRun(t, dir, "a-r1.json", "A", 1, 1)
	b := writeRun(t, dir, "a-r2.json", "A", 1.1, 0.9)
	c := writeRun(t, dir, "a-r3.json", "A", 0.9, 1.2)
	html := filepath.Join(dir, "a.html")
	code, out, errOut := runMain("report", "--html", html, a, b, c)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"(3 repeats)", "2 users, 3 runs", "min / median / max", "95 % interval of the mean", "72.0 / 80.0 / 88.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("report of three runs lacks %q:\n%s", want, out)
		}
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "3 runs") || !strings.Contains(string(page), "<svg") {
		t.Errorf("the HTML report of three runs has no charts")
	}
	if code, _, errOut := runMain("report", "--json", a, b); code != 2 || !strings.Contains(errOut, "one file") {
		t.Errorf("report --json of two files: exit %d %s", code, errOut)
	}
}
