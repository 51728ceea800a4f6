package report

import (
	"bytes"
	"encoding/csv"
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// replayInput is a replay of a trace of 3,000 requests captured over 10 s, done in
// seconds with a read p99 of p99 ms.
func replayInput(name string, replayed int64, seconds, p99 float64, mapping string) results.Input {
	st := results.DiskStep{Profile: "replay", Depth: 4, MeasuredS: seconds, IOPS: float64(replayed) / seconds,
		Read:  &results.DiskDir{IOs: replayed * 2 / 3, IOPS: float64(replayed) * 2 / 3 / seconds, AvgMS: p99 / 3, P99MS: p99},
		Write: &results.DiskDir{IOs: replayed / 3, IOPS: float64(replayed) / 3 / seconds, AvgMS: 1, P99MS: 2}}
	d := &results.DiskRun{Target: results.DiskTarget{Path: "/dev/loop" + name, Raw: true, SizeBytes: 1 << 30}, FIO: "3.33", Direct: true,
		Profiles: []results.DiskProfile{{Name: "replay", FIO: []string{"replay: replay_redirect=/dev/loop" + name}}},
		Steps:    []results.DiskStep{st},
		Replay: &results.Replay{Trace: "cap/step-1/trace.iolog", Mode: "timed", Mapping: mapping, Depth: 4, Captured: 3000, Replayed: replayed,
			CapturedS: 10, ReplayedS: seconds, LagP50MS: 1, LagP99MS: 50 * (seconds - 10), LagMaxMS: 100 * (seconds - 10)}}
	return results.Input{Path: name + ".json", Run: &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Label: name, Steps: []results.Step{}, Disk: d}}
}

// TestReplayCompare: two layouts' replays of one trace read as the issue puts it,
// latency changes and each one's pace against the captured one, with the fidelity
// rows in the step's table; replays of different traces or timings are warned
// about, and a replay's own line says what was replayed how.
func TestReplayCompare(t *testing.T) {
	fast := replayInput("fast", 3000, 10, 4, "")
	slow := replayInput("slow", 3000, 11.5, 2.36, "span 0:256MiB")
	c, err := compare.CompareDisk([]results.Input{fast, slow})
	if err != nil {
		t.Fatal(err)
	}
	hs := c.Headlines(1)
	want := "replay, 4 outstanding: read latency p99 -41 %, write latency p99 +0 %, IOPS achieved 87 % vs 100 % of captured"
	if len(hs) != 1 || hs[0] != want {
		t.Errorf("headlines %q, want %q", hs, want)
	}
	var out bytes.Buffer
	if err := WriteDiskComparisonText(c, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "replay of cap/step-1/trace.iolog (timed, span 0:256MiB) on /dev/loopslow") {
		t.Errorf("the slow replay's line does not say what it replayed how:\n%s", out.String())
	}
	// Each fidelity row: the base's value, the other's, the change.
	for _, row := range [][]string{
		{"requests replayed", "100.0 %", "100.0 %", "+0.0 %"},
		{"IOPS of captured", "100.0 %", "87.0 %", "-13.0 %"},
		{"duration / captured", "1.00", "1.15", "+15.0 %"},
		{"behind trace p99", "0.000 ms", "75.00 ms"},
	} {
		if !hasRow(out.String(), row) {
			t.Errorf("no row %q in:\n%s", row, out.String())
		}
	}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("warnings for two replays of one trace: %q", w)
	}
	other := replayInput("other", 2000, 10, 4, "")
	other.Run.Disk.Replay.Captured, other.Run.Disk.Replay.Mode = 2000, "asap"
	c2, err := compare.CompareDisk([]results.Input{fast, other})
	if err != nil {
		t.Fatal(err)
	}
	if w := c2.Warnings(); len(w) != 2 || !strings.Contains(w[0], "not the same trace") || !strings.Contains(w[1], "replayed asap") {
		t.Errorf("warnings %q; want another trace and another timing named", w)
	}
	// A profile run beside a replay: no fidelity rows for the profile, a warning.
	c3, err := compare.CompareDisk([]results.Input{diskInput("A", 1000, 3), fast})
	if err != nil {
		t.Fatal(err)
	}
	if w := c3.Warnings(); len(w) == 0 || !strings.Contains(w[0], "only one of") {
		t.Errorf("warnings %q", w)
	}
}

// hasRow tells whether a line of text holds every cell of row, in order.
func hasRow(text string, row []string) bool {
	for _, line := range strings.Split(text, "\n") {
		rest, ok := line, true
		for _, c := range row {
			i := strings.Index(rest, c)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(c):]
		}
		if ok {
			return true
		}
	}
	return false
}

// A replay has no ramp-up: its report and a comparison of replays say its window is
// the whole replay, not that it ramped up, and name no device figures it lacks; a
// comparison of a profile run with a replay says what holds for each.
func TestReplayFootnoteSaysNoRampUp(t *testing.T) {
	fast, slow := replayInput("fast", 3000, 10, 4, ""), replayInput("slow", 3000, 11.5, 2.36, "")
	c, err := compare.CompareDisk([]results.Input{fast, slow})
	if err != nil {
		t.Fatal(err)
	}
	var report, cmp, mixed bytes.Buffer
	if err := WriteDiskReportHTML(&report, fast); err != nil {
		t.Fatal(err)
	}
	if err := WriteDiskComparisonHTML(c, &cmp, nil, nil); err != nil {
		t.Fatal(err)
	}
	for what, page := range map[string]string{"report": report.String(), "comparison": cmp.String()} {
		if strings.Contains(page, "ramp-up, then measured") || strings.Contains(page, "Device figures") ||
			!strings.Contains(page, "A replay ran the captured trace on fio with no ramp-up: its window is the whole replay.") {
			t.Errorf("the replay %s's footnote:\n%s", what, page)
		}
	}
	profile := diskInput("A", 1000, 3)
	for i := range profile.Run.Disk.Steps {
		profile.Run.Disk.Steps[i].IO = &results.StepIO{Source: "diskstats"}
	}
	c, err = compare.CompareDisk([]results.Input{profile, fast})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteDiskComparisonHTML(c, &mixed, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Each profile's step ran on fio for its ramp-up, then measured.", "A replay ran the captured trace on fio with no ramp-up",
		"Device figures come from the block device's own counters over the same window."} {
		if !strings.Contains(mixed.String(), html.EscapeString(want)) {
			t.Errorf("a profile run beside a replay: the footnote lacks %q", want)
		}
	}
}

// The storage-profile CSV carries a replay's fidelity, as compare shows it, in
// columns appended after the existing ones and named with their units; a profile's
// step leaves them empty.
func TestReplayFidelityInCSV(t *testing.T) {
	slow := replayInput("slow", 3000, 11.5, 2.36, "")
	var b bytes.Buffer
	if err := WriteDiskCSV(&b, []results.Input{slow, diskInput("A", 1000, 3)}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(rows[0], ",")
	const before = ",sync_p99_ms,device_iops,device_mbps,device_read_await_ms,device_write_await_ms,device_agrees"
	const fidelity = ",replayed_percent,iops_of_captured_percent,duration_ratio,lag_p99_ms,lag_max_ms"
	if !strings.HasSuffix(head, before+fidelity) {
		t.Fatalf("header %s, want it to end %s", head, before+fidelity)
	}
	n := len(rows[0])
	if got := strings.Join(rows[1][n-5:], ","); got != "100,86.9565,1.15,75,150" {
		t.Errorf("the replay's fidelity columns: %s", got)
	}
	if got := strings.Join(rows[2][n-5:], ","); got != ",,,," {
		t.Errorf("a profile step's fidelity columns: %s", got)
	}
}

// A replay's HTML report says how faithful the replay was, as its text report does,
// and shows no seed: a replay's offsets and sizes are the trace's.
func TestReplayReportHTMLShowsFidelity(t *testing.T) {
	in := replayInput("slow", 3000, 11.5, 2.36, "")
	var page bytes.Buffer
	if err := WriteDiskReportHTML(&page, in); err != nil {
		t.Fatal(err)
	}
	if want := html.EscapeString(FidelityLine(in.Run.Disk.Replay)); !strings.Contains(page.String(), want) {
		t.Errorf("the replay's HTML report lacks %q:\n%s", want, page.String())
	}
	runs := diskRunsTable([]results.Input{in})
	if seed := runs.Rows[0][slices.Index(runs.Head, "seed")].Text; seed != "-" {
		t.Errorf("a replay's seed shows as %q, want -", seed)
	}
}
