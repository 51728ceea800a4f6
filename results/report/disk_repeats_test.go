package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// diskSide is n storage-profile runs of one system as one side: IOPS iops (±3 %
// across the runs), latency the inverse.
func diskSide(name string, n int, iops float64) results.Input {
	var runs []results.Input
	for j := range n {
		f := 1 + 0.03*float64(j-1)
		in := diskInput(name, iops*f, 1000/(iops*f))
		in.Path = fmt.Sprintf("%s-r%d-disk.json", name, j+1)
		runs = append(runs, in)
	}
	side := runs[0]
	side.Repeats = runs[1:]
	return side
}

// TestDiskCompareRepeats: three runs a side read as the runs' comparison does,
// the headline with its intervals and verdicts, each table cell with the mean,
// spread, interval, detectable difference and verdict, and the CSV with a row per
// run and its side's judged change.
func TestDiskCompareRepeats(t *testing.T) {
	c, err := compare.CompareDisk([]results.Input{diskSide("fast", 3, 1000), diskSide("slow", 3, 80)})
	if err != nil {
		t.Fatal(err)
	}
	hs := c.Headlines(1)
	if len(hs) != 2 || hs[0] != "database, 64 outstanding: IOPS -92 % [-93 … -91] worse, avg latency +1150 % [+1068 … +1238] worse" {
		t.Errorf("headlines %q", hs)
	}
	var out bytes.Buffer
	if err := WriteDiskComparisonText(c, &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"fast-r1-disk.json, fast-r2-disk.json, fast-r3-disk.json (3 repeats)", "min / median / max", "95 % interval", "worse"} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison lacks %q:\n%s", want, text)
		}
	}
	golden(t, "disk-repeats.txt", out.Bytes())

	out.Reset()
	if err := WriteDiskComparisonCSV(c, &out); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	if !slices.Equal(head, DiskCompareCSVHeader()) || len(rows) != 1+6*3 {
		t.Fatalf("CSV header %q, %d rows; want a row per run and step", head, len(rows))
	}
	verdict := slices.Index(head, "iops_verdict")
	lo, hi := slices.Index(head, "iops_change_lo"), slices.Index(head, "iops_change_hi")
	for _, row := range rows[1:] {
		if row[0] == "fast-r2-disk.json" && row[verdict] != "" {
			t.Errorf("a base run's row carries a verdict: %q", row)
		}
		if row[0] == "slow-r3-disk.json" && row[2] == "database" && (row[verdict] != "worse" || row[lo] == "" || row[hi] == "" || !strings.HasPrefix(row[hi], "-")) {
			t.Errorf("slow's row: %q", row)
		}
	}

	out.Reset()
	if err := WriteDiskComparisonHTML(c, &out, nil, nil); err != nil {
		t.Fatal(err)
	}
	if html := out.String(); !strings.Contains(html, "[-93 … -91] worse") || !strings.Contains(html, "slow-r3-disk.json") {
		t.Error("the HTML comparison lacks the judged headline or a repeat's file")
	}
}

// TestDiskCompareTwoRepeats: two runs a side show their interval, but the verdict
// is withheld with the reason.
func TestDiskCompareTwoRepeats(t *testing.T) {
	c, err := compare.CompareDisk([]results.Input{diskSide("fast", 2, 1000), diskSide("slow", 2, 80)})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteDiskComparisonText(c, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"IOPS -92 % [", "] no verdict", "no verdict: 2 repeats a side; a verdict needs 3"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("comparison lacks %q:\n%s", want, out.String())
		}
	}
}
