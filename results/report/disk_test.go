package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// diskInput is a storage-profile file whose database profile does iops at each
// depth with latency avg ms, reads two thirds of it.
func diskInput(name string, iops, avg float64) results.Input {
	d := &results.DiskRun{Target: results.DiskTarget{Path: "/mnt/x/brokerbench-disk.dat", SizeBytes: 1 << 30, Filesystem: "ext4", Device: "loop0"},
		FIO: "3.33", Direct: true, Profiles: []results.DiskProfile{{Name: "database"}, {Name: "wal"}}}
	for _, depth := range []int{1, 64} {
		scale := float64(depth)
		st := results.DiskStep{Profile: "database", Depth: depth, BlockSize: "8k", MeasuredS: 10, IOPS: iops * scale, MBps: iops * scale / 128,
			Read:  &results.DiskDir{IOs: int64(iops * scale * 6.7), IOPS: iops * scale * 0.67, AvgMS: avg, P99MS: 3 * avg},
			Write: &results.DiskDir{IOs: int64(iops * scale * 3.3), IOPS: iops * scale * 0.33, AvgMS: avg, P99MS: 4 * avg}}
		d.Steps = append(d.Steps, st)
	}
	d.Steps = append(d.Steps, results.DiskStep{Profile: "wal", Depth: 1, IOPS: 300, MBps: 2.3,
		Write: &results.DiskDir{IOs: 3000, IOPS: 300, AvgMS: 3}, Sync: &results.DiskSync{Count: 3000, AvgMS: 1, P99MS: 9}})
	return results.Input{Path: name + ".json", Run: &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Label: name, Seed: 1, Steps: []results.Step{}, Disk: d}}
}

// TestDiskCompareAndGates: the reference's sentence, per profile at the highest
// shared depth, and a gate on a profile figure.
func TestDiskCompareAndGates(t *testing.T) {
	a, b := diskInput("A", 1000, 3), diskInput("B", 1550, 2)
	c, err := compare.CompareDisk([]results.Input{a, b})
	if err != nil {
		t.Fatal(err)
	}
	hs := c.Headlines(1)
	if len(hs) != 2 || hs[0] != "database, 64 outstanding: IOPS +55 %, avg latency -33 %" {
		t.Errorf("headlines %q", hs)
	}
	var out bytes.Buffer
	if err := WriteDiskComparisonText(c, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"database, 1 outstanding", "sync p99", "+55.0 %"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("comparison lacks %q:\n%s", want, out.String())
		}
	}
	gates := []compare.DiskGate{}
	for _, e := range []string{"disk.iops<+60%", "disk.read_p99>5ms", "disk.sync_p99>1s"} {
		g, err := compare.ParseDiskGate(e)
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
	}
	trips, unchecked := c.CheckGates(gates)
	// IOPS rose less than 60 % at all three steps, read p99 is over 5 ms at both
	// database steps, and the WAL's sync p99 of 9 ms is under 1 s.
	if len(trips) != 5 || trips[0] != "run B at database, 1 outstanding: disk.iops +55.0 % < +60 %" ||
		trips[4] != "run B at database, 64 outstanding: disk.read_p99 6.000 ms > 5 ms" || len(unchecked) != 0 {
		t.Errorf("trips %q, unchecked %v", trips, unchecked)
	}
	for _, bad := range []string{"disk.nosuch<1", "disk.iops", "disk.latency<fast"} {
		if _, err := compare.ParseDiskGate(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("warnings for two like runs: %q", w)
	}
	b.Run.Seed, b.Run.Disk.Target.SizeBytes = 2, 8<<30
	if w := c.Warnings(); len(w) != 2 || !strings.Contains(w[0], "seed 2") || !strings.Contains(w[1], "8 GiB") {
		t.Errorf("warnings %q; want the seed and the size named", w)
	}
	if _, err := compare.CompareDisk([]results.Input{a, {Path: "run.json", Run: &results.Run{Format: 1}}}); err == nil {
		t.Error("an OLTP run was compared as a storage-profile file")
	}
}

// TestDiskReportCSVAndHTML: the table, one CSV row per step under the documented
// header, and a self-contained page with an IOPS and a latency chart per profile.
func TestDiskReportCSVAndHTML(t *testing.T) {
	in := diskInput("A", 1000, 3)
	var txt bytes.Buffer
	if err := WriteDiskReport(&txt, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "1000 / 7.8 / 3.000") || !strings.Contains(txt.String(), "64000 / 500.0 / 3.000") {
		t.Errorf("the profile × depth table lacks its cells:\n%s", txt.String())
	}
	var cb bytes.Buffer
	if err := WriteDiskCSV(&cb, []results.Input{in}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != strings.Join(DiskCSVHeader(), ",") || rows[3][2] != "wal" || rows[3][27] != "3000" {
		t.Errorf("CSV rows %q", rows)
	}
	var hb bytes.Buffer
	if err := WriteDiskReportHTML(&hb, in); err != nil {
		t.Fatal(err)
	}
	// The database profile's two charts; the WAL, at one depth, is in the tables only.
	checkSelfContained(t, hb.String(), 2)
	if !strings.Contains(hb.String(), "database: IOPS against outstanding I/Os") || strings.Contains(hb.String(), "wal: IOPS against") {
		t.Error("the report draws a chart for a profile of one depth, or none for one of two")
	}
	c, _ := compare.CompareDisk([]results.Input{in, diskInput("B", 500, 6)})
	hb.Reset()
	if err := WriteDiskComparisonHTML(c, &hb, nil, nil); err != nil {
		t.Fatal(err)
	}
	checkSelfContained(t, hb.String(), 2)
	if !strings.Contains(hb.String(), "IOPS -50 %") {
		t.Error("the comparison page lacks its headline")
	}
}

// TestDiskChangeFromNearZero: a latency that grows more than tenfold (a page-cache
// hit against a throttled disk) is shown as its two values, as run comparisons show
// it, not as "+39780.8 %".
func TestDiskChangeFromNearZero(t *testing.T) {
	a, b := diskInput("A", 1000, 0.013), diskInput("B", 200, 4.985)
	c, err := compare.CompareDisk([]results.Input{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteDiskComparisonText(c, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "0.013 ms → 4.985 ms") || strings.Contains(out.String(), "+38246.2 %") {
		t.Errorf("a far change is not shown as its two values:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "-80.0 %") {
		t.Errorf("a near change lost its percentage:\n%s", out.String())
	}
}

// TestDiskCSVEscapes: a label from a result file reaches the CSV escaped, as it
// does in the step CSV, so a terminal that shows the file runs none of it.
func TestDiskCSVEscapes(t *testing.T) {
	in := diskInput("A", 1000, 3)
	in.Run.Label = "\x1b[2Jred"
	var cb bytes.Buffer
	if err := WriteDiskCSV(&cb, []results.Input{in}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(cb.String(), 0x1b) || !strings.Contains(cb.String(), `\x1b[2Jred`) {
		t.Errorf("the label is not escaped in the CSV:\n%q", cb.String())
	}
}
