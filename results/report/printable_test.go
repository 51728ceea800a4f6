package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// hostile is the label: clear the screen, turn red, set the window title.
const hostile = "\x1b[2J\x1b[31mRED\x1b]0;pwned\x07"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"H810 RAID10":    "H810 RAID10",
		"naïve – ok ✓":   "naïve – ok ✓",
		hostile:          `\x1b[2J\x1b[31mRED\x1b]0;pwned\a`,
		"a\nb\tc\r":      `a\nb\tc\r`,
		"c1 \u009b31m":   `c1 \u009b31m`,
		"rtl \u202eevil": `rtl \u202eevil`,
		"bad \xff utf8":  `bad \xff utf8`,
		"del \x7f":       `del \x7f`,
	} {
		if got := results.Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTerminalWriter: control characters are escaped however the writes split
// them, newlines and tabs pass, and a C1 control split across two writes is caught.
func TestTerminalWriter(t *testing.T) {
	var b bytes.Buffer
	w := results.NewTerminalWriter(&b)
	for _, part := range []string{"a\x1b[2", "Jb\n\tc\xc2", "\x9bd\xc2", "\xa9e\x07"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if want := `a\x1b[2Jb` + "\n\tc" + `\u009bd©e\x07`; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestReportEscapes: a result file whose label, tags, transaction names, flags and
// product are terminal escapes prints as text and CSV with no raw control byte, the
// escapes shown.
func TestReportEscapes(t *testing.T) {
	r := runfixture.SampleRun(hostile, []int{2, 4}, 1, 1, 3)
	r.Tags = map[string]string{"k\x1b]0;t\x07": hostile}
	r.Database.Product = hostile
	r.Tool = hostile
	st := &r.Steps[0]
	st.Flags = append(st.Flags, hostile)
	st.Transactions[hostile] = st.Transactions["Trade-Order"]
	in := results.Input{Path: "run\x1b[2J.json", Run: r}
	var text, csv, cmp bytes.Buffer
	if err := WriteReport(&text, in); err != nil {
		t.Fatal(err)
	}
	if err := WriteStepsCSV(&csv, []results.Input{in}); err != nil {
		t.Fatal(err)
	}
	c, err := compare.Compare([]results.Input{in, {Path: "b.json", Run: runfixture.SampleRun("b", []int{2, 4}, 1, 1, 4)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonText(c, &cmp); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"report": text.String(), "csv": csv.String(), "compare": cmp.String()} {
		if strings.ContainsAny(out, "\x1b\x07\r") || strings.Contains(out, "\u009b") {
			t.Errorf("%s output holds a raw control character:\n%q", name, out)
		}
		if !strings.Contains(out, `\x1b[2J\x1b[31mRED`) {
			t.Errorf("%s output does not show the label escaped:\n%s", name, out)
		}
	}
}
