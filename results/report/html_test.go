package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./results/report -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Fatalf("%s differs from its golden file; see %s.got (go test -update rewrites it)", name, path)
	}
}

var (
	svgRe     = regexp.MustCompile(`(?s)<svg\b.*?</svg>`)
	urlRe     = regexp.MustCompile(`https?://[^\s"'<>)]*`)
	xmlnsURLs = map[string]bool{"http://www.w3.org/2000/svg": true, "http://www.w3.org/1999/xlink": true}
	forbidden = []string{"<script", "<link", "<img", "@import", "<iframe", "src="}
)

// checkSelfContained fails on anything an HTML file could load from the network.
// The SVG namespace URIs are names, not fetched, and are the one exception.
func checkSelfContained(t *testing.T, html string, minCharts int) {
	t.Helper()
	if n := len(svgRe.FindAllString(html, -1)); n < minCharts {
		t.Errorf("%d inline <svg> charts, want at least %d", n, minCharts)
	}
	for _, u := range urlRe.FindAllString(html, -1) {
		if !xmlnsURLs[u] {
			t.Errorf("network reference %q", u)
		}
	}
	for _, f := range forbidden {
		if strings.Contains(strings.ToLower(html), f) {
			t.Errorf("HTML contains %q", f)
		}
	}
	for _, s := range []string{"<!DOCTYPE html>", "<style>", "</html>"} {
		if !strings.Contains(html, s) {
			t.Errorf("HTML lacks %q", s)
		}
	}
}

func goldenInputs() []results.Input {
	base := runfixture.SampleRun("H800 RAID10", []int{50, 100, 150}, 1, 1, 11)
	other := runfixture.SampleRun("H810 <RAID10>", []int{50, 100, 150, 200}, 1.5, 0.7, 12)
	third := runfixture.SampleRun("H810 RAID5", []int{50, 100}, 1.2, 0.9, 13)
	third.Steps[1].IO = nil
	return []results.Input{{Path: "h800.json", Run: base}, {Path: "h810.json", Run: other}, {Path: "raid5.json", Run: third}}
}

func TestCompareHTMLGolden(t *testing.T) {
	c, err := compare.Compare(goldenInputs())
	if err != nil {
		t.Fatal(err)
	}
	gates, _ := compare.ParseGates([]string{"tps<-10%", "p95>+20%"})
	trips, err := c.CheckGates(gates)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteComparisonHTML(c, &buf, CompareHTMLOptions{Gates: gates, Trips: trips}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	checkSelfContained(t, html, 4)
	for _, s := range []string{"H810 &lt;RAID10&gt;", "150 users", "Unmatched", "at 150 users: tps", "<caption>Runs</caption>", "controller=H800 RAID10"} {
		if !strings.Contains(html, s) {
			t.Errorf("HTML lacks %q", s)
		}
	}
	if strings.Contains(html, "<RAID10>") {
		t.Error("label not escaped")
	}
	// Deterministic: a second rendering is byte-identical.
	var again bytes.Buffer
	c2, _ := compare.Compare(goldenInputs())
	_ = WriteComparisonHTML(c2, &again, CompareHTMLOptions{Gates: gates, Trips: trips})
	if again.String() != html {
		t.Fatal("HTML output is not deterministic")
	}
	golden(t, "compare.html", buf.Bytes())
}

func TestReportHTMLGolden(t *testing.T) {
	in := goldenInputs()[0]
	var buf bytes.Buffer
	if err := WriteReportHTML(&buf, in, runfixture.Workload()); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	checkSelfContained(t, html, 5)
	for _, s := range []string{"I/O over the run", "p95 response time per transaction", "100 users, 50 s measured after 10 s warm-up", "Trade-Result"} {
		if !strings.Contains(html, s) {
			t.Errorf("HTML lacks %q", s)
		}
	}
	golden(t, "report.html", buf.Bytes())
}

func TestSelfContainedCheckCatchesURLs(t *testing.T) {
	bad := `<!DOCTYPE html><style></style><svg xmlns="http://www.w3.org/2000/svg"></svg><a href="https://example.com">x</a></html>`
	if u := urlRe.FindAllString(bad, -1); len(u) != 2 || xmlnsURLs[u[1]] {
		t.Fatalf("URL scan found %v", u)
	}
}

// TestFindMaxChartsLeaveOutTheCalibration: the unpaced calibration probe has no
// offered rate, so the charts against the offered rate leave it out instead of
// drawing it at 0 tps offered.
func TestFindMaxChartsLeaveOutTheCalibration(t *testing.T) {
	r := &results.Run{Steps: []results.Step{{Users: 8, TPS: 571}, {Users: 8, Rate: 514, TPS: 515}, {Users: 8, Rate: 772, TPS: 771}}}
	ax := runXAxis(r)
	rp := &reportPage{r: r, ax: ax, order: []int{0, 1, 2}, views: []figures.StepView{{Step: &r.Steps[0]}, {Step: &r.Steps[1]}, {Step: &r.Steps[2]}}}
	l := rp.byX("tps", 0, false, figures.Metric{Key: "tps", Value: func(v figures.StepView) (float64, bool) { return v.Step.TPS, true }})
	if len(l.Xs) != 2 || l.Xs[0] != 514 || l.Xs[1] != 772 {
		t.Fatalf("tps drawn at offered %v", l.Xs)
	}
}
