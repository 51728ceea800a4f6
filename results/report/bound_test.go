package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestBoundRules applies the cpu-bound and io-bound rules to one step at a time,
// on each side of every threshold.
func TestBoundRules(t *testing.T) {
	disk := func(util float64, layer string) *results.StepIO {
		return &results.StepIO{Source: "diskstats", Devices: []results.DeviceIO{{Name: "sdb", Layer: layer, IOFigures: results.IOFigures{UtilPercent: util}}}}
	}
	host := func(user, sys, iow, steal, idle float64) *results.StepHost {
		return &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 8, UserPct: user, SystemPct: sys, IOWaitPct: iow, StealPct: steal, IdlePct: idle}}
	}
	for _, c := range []struct {
		name     string
		host     *results.StepHost
		io       *results.StepIO
		cpu, iob bool
	}{
		{"saturated CPUs", host(70, 26, 1, 0, 3), disk(50, ""), true, false},
		{"steal counts as busy", host(50, 20, 2, 26, 2), nil, true, false},
		{"idle just at the line", host(70, 21, 4, 0, 5), nil, false, false},
		{"busy but waiting on I/O", host(70, 20, 6, 0, 4), disk(50, ""), false, false},
		{"waiting on a saturated disk", host(30, 10, 25, 0, 35), disk(96, ""), false, true},
		{"iowait just under the line", host(30, 10, 9.9, 0, 50.1), disk(99, ""), false, false},
		{"disk under 90 % busy", host(30, 10, 25, 0, 35), disk(89, ""), false, false},
		{"only a member disk is busy", host(30, 10, 25, 0, 35), disk(99, LayerMemberForTest), false, false},
		{"totals' utilisation when no device is listed", host(30, 10, 25, 0, 35), &results.StepIO{Source: "node_exporter", IOFigures: results.IOFigures{UtilPercent: 92}}, false, true},
		{"database views have no utilisation", host(30, 10, 25, 0, 35), &results.StepIO{Source: "pg_stat_io"}, false, false},
		{"unknown host", &results.StepHost{Source: results.HostSourceNone, Note: "remote"}, disk(99, ""), false, false},
		{"no host at all", nil, disk(99, ""), false, false},
	} {
		st := &results.Step{Host: c.host, IO: c.io}
		if got := figures.CPUBound(st); got != c.cpu {
			t.Errorf("%s: cpu-bound = %v, want %v", c.name, got, c.cpu)
		}
		if got := figures.IOBound(st, nil); got != c.iob {
			t.Errorf("%s: io-bound = %v, want %v", c.name, got, c.iob)
		}
	}
}

// TestIOBoundAtCgroupLimit pins the io-bound rule's second sign on the step it
// was found on (docs/host.md §3.2): PostgreSQL capped at 192 MiB on a loop device
// that the server's blkio group holds to 300 reads and 300 writes a second. The
// CPUs waited 82 % of the time and the reads ran at the limit, yet the loop device
// was busy 2 % of the window: the throttled reads waited above its queue.
func TestIOBoundAtCgroupLimit(t *testing.T) {
	waiting := &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 2, UserPct: 6, SystemPct: 8.7, IOWaitPct: 82.45, IdlePct: 2.85}}
	loop := func(readIOPS, readMiBs float64) *results.StepIO {
		f := results.IOFigures{ReadIOPS: readIOPS, WriteIOPS: 65.5, ReadMBps: readMiBs, WriteMBps: 0.63, UtilPercent: 2.11}
		return &results.StepIO{Source: "diskstats", IOFigures: f, Devices: []results.DeviceIO{{Name: "loop0", Role: "data+wal", IOFigures: f}}}
	}
	onLoop := func(throttle string) *results.System {
		return &results.System{Storage: []results.StorageStack{{Role: "data", Devices: []results.BlockDevice{{Name: "loop0", Number: "7:0", Throttle: throttle}}}}}
	}
	memberIO := loop(150, 1.8)
	memberIO.Devices = append(memberIO.Devices, results.DeviceIO{Name: "vda", Layer: LayerMemberForTest, IOFigures: results.IOFigures{ReadIOPS: 150, WriteIOPS: 196, UtilPercent: 3}})
	onMember := &results.System{Storage: []results.StorageStack{{Role: "data", Devices: []results.BlockDevice{{Name: "loop0"}, {Name: "vda", Throttle: "riops=400 wiops=200"}}}}}
	for _, c := range []struct {
		name string
		host *results.StepHost
		io   *results.StepIO
		sys  *results.System
		want bool
	}{
		{"reads at 96 % of riops", waiting, loop(288.6, 3.61), onLoop("riops=300 wiops=300"), true},
		{"no limit recorded: 2 % busy is not saturated", waiting, loop(288.6, 3.61), onLoop(""), false},
		{"storage not described", waiting, loop(288.6, 3.61), nil, false},
		{"reads at 89.7 % of riops", waiting, loop(269, 3.3), onLoop("riops=300 wiops=300"), false},
		{"bytes at 90.3 % of rbps", waiting, loop(150, 3.61), onLoop("rbps=4194304"), true},
		{"bytes at 72 % of rbps", waiting, loop(150, 3.61), onLoop("rbps=5242880"), false},
		{"max is no limit", waiting, loop(288.6, 3.61), onLoop("riops=max wiops=300 rbps=max wbps=max"), false},
		{"writes at 98 % of a member disk's wiops", waiting, memberIO, onMember, true},
		{"at the limit but the CPUs hardly waited", &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 2, UserPct: 60, SystemPct: 30, IOWaitPct: 4, IdlePct: 6}}, loop(288.6, 3.61), onLoop("riops=300"), false},
	} {
		st := &results.Step{Host: c.host, IO: c.io}
		if got := figures.IOBound(st, c.sys); got != c.want {
			t.Errorf("%s: io-bound = %v, want %v", c.name, got, c.want)
		}
	}
	r := &results.Run{System: onLoop("riops=300 wiops=300"), Steps: []results.Step{{Users: 4, Host: waiting, IO: loop(288.6, 3.61)}}}
	figures.SetStepFlags(r)
	if !results.HasFlag(&r.Steps[0], figures.FlagIOBound) {
		t.Errorf("SetStepFlags: flags %v lack io-bound", r.Steps[0].Flags)
	}
}

// LayerMemberForTest is iostat.LayerMember, which results cannot import.
const LayerMemberForTest = "member"

// TestBoundFlagsReportCompareGate: two arrays at the same user counts, A waiting on
// its disk at 8 users and B, faster, bound by its CPU there. The flags are set and
// cleared with the others, the report shows the host columns, the C and I flags
// and their notes, compare warns that the two had different bottlenecks,
// and the host figures reach the CSV, the compare table and the gates.
func TestBoundFlagsReportCompareGate(t *testing.T) {
	a, b := readFixture(t, "../host/array_a.json"), readFixture(t, "../host/array_b.json")
	b.Run.Steps[0].Flags = []string{figures.FlagCPUBound, "somebody-elses"} // stale: must be cleared, the other kept
	figures.SetStepFlags(a.Run)
	figures.SetStepFlags(b.Run)
	for _, c := range []struct {
		run   *results.Run
		i     int
		flags []string
	}{
		{a.Run, 0, nil}, {a.Run, 1, []string{figures.FlagIOBound}},
		{b.Run, 0, []string{"somebody-elses"}}, {b.Run, 1, []string{figures.FlagCPUBound}},
	} {
		var got []string
		for _, f := range c.run.Steps[c.i].Flags {
			if f == figures.FlagCPUBound || f == figures.FlagIOBound || f == "somebody-elses" {
				got = append(got, f)
			}
		}
		if !slices.Equal(got, c.flags) {
			t.Errorf("%s step %d: flags %v, want %v", c.run.Label, c.i, c.run.Steps[c.i].Flags, c.flags)
		}
	}

	var buf bytes.Buffer
	if err := WriteReport(&buf, b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CPU usr/sys/iow/steal/idle %", "68/24/1/4/3", "31.0", "8 GiB / 48 GiB / 8 GiB", "37.19 / 87.74", "5.6",
		"C: cpu-bound (at 8 users)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report of B lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := WriteReport(&buf, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "I: io-bound (at 8 users)") || strings.Contains(buf.String(), "C: cpu-bound") {
		t.Errorf("report of A:\n%s", buf.String())
	}

	c, err := compare.Compare([]results.Input{a, b})
	if err != nil {
		t.Fatal(err)
	}
	w := c.BoundWarnings()
	if len(w) != 1 || !strings.Contains(w[0], "at 8 users array A bottleneck io vs array B bottleneck cpu)") || strings.Contains(w[0], "at 4 users") {
		t.Fatalf("bound warnings %q", w)
	}
	buf.Reset()
	if err := WriteComparisonText(c, &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"warning: array B vs array A: different bottlenecks", "host CPU busy", "host CPU iowait", "driver host CPU busy"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("compare text lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := WriteComparisonHTML(c, &buf, CompareHTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Not comparable: array B vs array A: different bottlenecks (at 8 users array A bottleneck io vs array B bottleneck cpu)") {
		t.Error("compare HTML lacks the bound warning")
	}

	gates, err := compare.ParseGates([]string{"cpu_pct>95", "cpu_iowait_pct>+50%"})
	if err != nil {
		t.Fatal(err)
	}
	trips, err := c.CheckGates(gates)
	if err != nil {
		t.Fatal(err)
	}
	// B's busy CPU is 96 % at 8 users (75+2 % at 4 does not trip); its iowait fell.
	if len(trips) != 1 || !strings.Contains(trips[0].String(), "cpu_pct") || !strings.Contains(trips[0].String(), "8 users") {
		t.Errorf("trips %v", trips)
	}

	buf.Reset()
	if err := WriteStepsCSV(&buf, []results.Input{a, b}); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(buf.String()), "\n")
	head := strings.Split(rows[0], ",")
	last := strings.Split(rows[len(rows)-1], ",")
	col := func(name string) string { return last[slices.Index(head, name)] }
	for name, want := range map[string]string{"host_source": "node_exporter", "host_cores": "16", "cpu_user_pct": "68", "cpu_steal_pct": "4",
		"run_queue": "31", "mem_cache_bytes": "51539607552", "net_tx_bytes_per_s": "92000000", "net_link_pct": "", "driver_cpu_pct": "45", "flags": "cpu-bound"} {
		if got := col(name); got != want {
			t.Errorf("CSV %s = %q, want %q", name, got, want)
		}
	}

	buf.Reset()
	if err := WriteReportHTML(&buf, b, runfixture.Workload()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Database host CPU") || !strings.Contains(buf.String(), "C cpu-bound") {
		t.Error("HTML report lacks the host CPU chart or the flag's note")
	}
	// In HTML the host's columns are a table of their own, which names each step's
	// bottleneck in the step rows' word, so the step table stays within the page.
	html := buf.String()
	hostAt := strings.Index(html, "Database host (measured window)")
	if hostAt < 0 || strings.Count(html, "CPU usr/sys/iow/steal/idle %") != 1 || strings.Index(html, "CPU usr/sys/iow/steal/idle %") < hostAt ||
		!strings.Contains(html[hostAt:], "<th>bottleneck</th>") || !strings.Contains(html[hostAt:], ">cpu</td>") ||
		strings.Contains(html[hostAt:], "CPU-bound") || !strings.Contains(html[hostAt:], "68/24/1/4/3") {
		t.Error("HTML report: the host columns are not in their own table with the bottleneck column")
	}
}

// TestOverRunLinesBreakStepsAndDropEdgeSlivers: each step's samples are a segment
// of their own (no line across the warm-up between steps), and the reading the
// sampler takes at a window's edge, 84 ms after the last periodic one, is left out
// of the chart: over so short an interval the split is a handful of ticks (the
// run in docs/host.md §3.2 charted CPUs 70 % busy there between samples at 15 %).
func TestOverRunLinesBreakStepsAndDropEdgeSlivers(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 2, 47, 11, 0, time.UTC)
	step := func(users int, from time.Duration, busy ...float64) results.Step {
		var series []results.HostSample
		for k, b := range busy {
			at := t0.Add(from + time.Duration(k)*5*time.Second)
			if k == len(busy)-1 {
				at = series[k-1].At.Add(84 * time.Millisecond)
			}
			series = append(series, results.HostSample{At: at, HostFigures: results.HostFigures{Cores: 2, UserPct: b, IOWaitPct: 100 - b}})
		}
		return results.Step{Users: users, Host: &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 2}, Series: series}}
	}
	r := &results.Run{StartedAt: t0, Steps: []results.Step{step(4, 25*time.Second, 10, 20, 15, 70), step(16, 95*time.Second, 35, 25, 40, 75)}}
	lines := []chart.Line{{Name: "busy"}, {Name: "iowait"}}
	overRunLines(r, lines, func(st *results.Step, add func(time.Time, ...float64)) {
		for _, s := range st.Host.Series {
			add(s.At, s.BusyPct(), s.IOWaitPct)
		}
	})
	if want := []float64{25, 30, 35, 95, 100, 105}; !slices.Equal(lines[0].Xs, want) {
		t.Errorf("xs %v, want %v", lines[0].Xs, want)
	}
	if want := []float64{10, 20, 15, 35, 25, 40}; !slices.Equal(lines[0].Ys, want) {
		t.Errorf("busy %v, want %v (the edge readings at 70 and 75 left out)", lines[0].Ys, want)
	}
	for _, l := range lines {
		if !slices.Equal(l.Breaks, []int{3}) {
			t.Errorf("%s: breaks %v, want [3] (the second step starts a segment)", l.Name, l.Breaks)
		}
	}
}
