package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

func readFixture(t *testing.T, name string) results.Input {
	t.Helper()
	p := "testdata/storage/" + name
	r, err := results.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	return results.Input{Path: p, Run: r}
}

func ptr(v float64) *float64 { return &v }

func TestCacheHitRatioArithmetic(t *testing.T) {
	for _, c := range []struct {
		hits, reads int64
		want        float64
		ok          bool
	}{
		{999, 1, 0.999, true},
		{93, 7, 0.93, true},
		{0, 50, 0, true},
		{50, 0, 1, true},
		{0, 0, 0, false},   // nothing asked for: unknown, not 100 %
		{-5, 10, 0, false}, // a counter went backwards: a statistics reset
	} {
		got, ok := figures.CacheHitRatio(c.hits, c.reads)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("CacheHitRatio(%d, %d) = %v, %v; want %v, %v", c.hits, c.reads, got, ok, c.want, c.ok)
		}
	}
}

func TestPerTxn(t *testing.T) {
	io := &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: 6919, WriteIOPS: 751}}
	io.PerTxn(40, 14960) // 374 tps over 40 s
	if io.ReadsPerTxn == nil || math.Abs(*io.ReadsPerTxn-18.5) > 0.001 || math.Abs(*io.WritesPerTxn-2.008) > 0.001 {
		t.Errorf("reads %v writes %v per txn", *io.ReadsPerTxn, *io.WritesPerTxn)
	}
	none := &results.StepIO{Source: "diskstats"}
	none.PerTxn(40, 0)
	if none.ReadsPerTxn != nil {
		t.Error("reads per transaction set without transactions")
	}
}

// TestDataSourceRule applies the documented rule to docs/storage-bound.md's rows: the
// uncapped steps (0.63 and 0.27 disk reads per transaction, hit ratio 93.6 % and
// 97.3 %) read from memory, every capped step from disk, the write-heavy capped step
// too (32.3 reads and 49.6 writes per transaction); the same figures from the database's
// own views give no verdict, since those views count OS page-cache hits as reads; a hit
// ratio above 99.9 % is memory whatever the source; a step whose reads fell through the
// window is warming.
func TestDataSourceRule(t *testing.T) {
	row := func(source string, readIOPS, writeIOPS, reads, writes, hit float64) results.Step {
		return results.Step{IO: &results.StepIO{Source: source, IOFigures: results.IOFigures{ReadIOPS: readIOPS, WriteIOPS: writeIOPS},
			ReadsPerTxn: ptr(reads), WritesPerTxn: ptr(writes)}, CacheHitRatio: ptr(hit)}
	}
	for _, c := range []struct {
		name string
		st   results.Step
		want string
	}{
		// docs/storage-bound.md, section 2's table.
		{"none, 4 users", row("diskstats", 20, 185, 0.63, 5.72, 0.936), results.DataMemory},
		{"none, 8 users", row("diskstats", 19, 271, 0.27, 3.83, 0.973), results.DataMemory},
		{"475 MB, 4 users", row("diskstats", 966, 290, 23.5, 7.05, 0.917), results.DataDisk},
		{"475 MB, 8 users", row("diskstats", 1979, 547, 18.0, 4.97, 0.914), results.DataDisk},
		{"237 MB, 4 users", row("diskstats", 1887, 495, 30.7, 8.06, 0.886), results.DataDisk},
		{"237 MB, 8 users", row("diskstats", 1599, 416, 31.4, 8.17, 0.883), results.DataDisk},
		// The same figures from another device source, and from the database's views.
		{"node_exporter", row("node_exporter", 966, 290, 23.5, 7.05, 0.917), results.DataDisk},
		{"SQL Server file statistics (unbuffered reads)", row("sqlserver_file_stats", 966, 290, 23.5, 7.05, 0.917), results.DataDisk},
		{"pg_stat_io, capped figures", row("pg_stat_io", 966, 290, 23.5, 7.05, 0.917), results.DataUnknown},
		{"pg_stat, uncapped figures", row("pg_stat", 20, 185, 0.63, 5.72, 0.936), results.DataUnknown},
		// Each test of the rule alone.
		{"just under 2 reads per txn", row("diskstats", 199, 100, 1.99, 1, 0.9), results.DataMemory},
		{"2 reads per txn", row("diskstats", 200, 100, 2, 1, 0.9), results.DataDisk},
		{"fewer reads than writes", row("diskstats", 100, 101, 5, 5.05, 0.9), results.DataDisk},
		{"write-heavy capped step", row("diskstats", 1278, 1962, 32.3, 49.6, 0.85), results.DataDisk},
		{"reads falling by half", warming(row("diskstats", 966, 290, 23.5, 7.05, 0.917), -0.5, true), results.DataWarming},
		{"reads falling by a third", warming(row("diskstats", 966, 290, 23.5, 7.05, 0.917), -results.WarmingReadsDrop, true), results.DataWarming},
		{"reads falling by a fifth", warming(row("diskstats", 966, 290, 23.5, 7.05, 0.917), -0.2, true), results.DataDisk},
		{"reads falling, within noise", warming(row("diskstats", 966, 290, 23.5, 7.05, 0.917), -0.5, false), results.DataDisk},
		{"reads rising", warming(row("diskstats", 966, 290, 23.5, 7.05, 0.917), 0.5, true), results.DataDisk},
		{"reads falling with tps", warmingWithTPS(row("diskstats", 966, 290, 23.5, 7.05, 0.917), -0.4, -0.35), results.DataDisk},
		{"reads falling faster than tps", warmingWithTPS(row("diskstats", 966, 290, 23.5, 7.05, 0.917), -0.6, -0.2), results.DataWarming},
		{"warming to memory", warming(row("diskstats", 30, 290, 1.2, 7.05, 0.99), -0.9, true), results.DataMemory},
		{"hit ratio alone", results.Step{CacheHitRatio: ptr(0.9995)}, results.DataMemory},
		{"hit ratio above 99.9 % from views", row("pg_stat_io", 966, 290, 23.5, 7.05, 0.9995), results.DataMemory},
		{"hit ratio at 99.9 %", results.Step{CacheHitRatio: ptr(0.999)}, results.DataUnknown},
		{"no source", results.Step{IO: &results.StepIO{Source: "none", ReadsPerTxn: ptr(0)}}, results.DataUnknown},
		{"device figures without transactions", results.Step{IO: &results.StepIO{Source: "diskstats"}}, results.DataUnknown},
		{"nothing known", results.Step{}, results.DataUnknown},
	} {
		if got := figures.DataSourceOf(&c.st); got != c.want {
			t.Errorf("%s: data source %s, want %s", c.name, got, c.want)
		}
		if got := figures.MemoryResident(&c.st); got != (c.want == results.DataMemory) {
			t.Errorf("%s: memory-resident %v", c.name, got)
		}
	}
}

// warming gives st the steadiness of a window whose disks' reads changed by change
// from its first half to its second, a drift by the rule or not.
func warming(st results.Step, change float64, drift bool) results.Step {
	st.Steadiness = &results.Steadiness{ReadsHalfChange: &change}
	if drift {
		st.Steadiness.Drifting = []string{"reads"}
	}
	return st
}

// warmingWithTPS is warming with tps changing too from the first half to the second.
func warmingWithTPS(st results.Step, reads, tps float64) results.Step {
	st = warming(st, reads, true)
	st.Steadiness.HalfChange = tps
	return st
}

func TestSetStepFlagsFromFixtures(t *testing.T) {
	mem := readFixture(t, "memory_resident.json").Run
	mem.Steps[1].Partial = true
	mem.Steps[0].Flags = []string{"unsteady", results.FlagKnee} // another engineer's flag stays; a stale knee goes
	figures.SetStepFlags(mem)
	if got := mem.Steps[0].Flags; !slices.Equal(got, []string{results.FlagKnee, results.FlagMemoryResident, "unsteady"}) {
		// 4 → 8 users: 700 → 721 tps is under 5 %, so 4 users is the knee.
		t.Errorf("step 1 flags %v", got)
	}
	if got := mem.Steps[1].Flags; !slices.Equal(got, []string{results.FlagPartial, results.FlagMemoryResident}) {
		t.Errorf("step 2 flags %v", got)
	}
	disk := readFixture(t, "storage_bound.json").Run
	figures.SetStepFlags(disk)
	for i, st := range disk.Steps {
		if results.HasFlag(&st, results.FlagMemoryResident) || len(st.Flags) != 0 {
			t.Errorf("storage-bound step %d flagged %v", i, st.Flags)
		}
	}
}

func TestReportShowsRegime(t *testing.T) {
	in := readFixture(t, "memory_resident.json")
	var buf bytes.Buffer
	if err := WriteReport(&buf, in); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"reads/txn", "writes/txn", "r:w", "hit ratio", "99.95 %", "1 : 758.7", "database 480 MiB",
		"M: memory-resident (at 4, 8 users)", "cap the server's memory", "data", "memory"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	disk := readFixture(t, "storage_bound.json")
	buf.Reset()
	if err := WriteReport(&buf, disk); err != nil {
		t.Fatal(err)
	}
	out = buf.String()
	for _, want := range []string{"9.2 : 1", "92.5 %", "18.50", "server memory capped at 256 MiB", "data", "disk"} {
		if !strings.Contains(out, want) {
			t.Errorf("storage-bound report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "memory-resident") || strings.Contains(out, "storage-bound") {
		t.Errorf("a run read from disk called memory-resident or storage-bound:\n%s", out)
	}
}

func TestCompareWarnsAboutRegime(t *testing.T) {
	mem, disk := readFixture(t, "memory_resident.json"), readFixture(t, "storage_bound.json")
	c, err := compare.Compare([]results.Input{mem, disk})
	if err != nil {
		t.Fatal(err)
	}
	w := c.RegimeWarnings()
	if len(w) != 2 {
		t.Fatalf("warnings %q, want the regime and the memory cap", w)
	}
	if !strings.Contains(w[0], "no cap: at 4, 8 users the step read its data from memory") {
		t.Errorf("regime warning %q", w[0])
	}
	if !strings.Contains(w[1], "memory caps differ (256 MiB vs none") {
		t.Errorf("cap warning %q", w[1])
	}
	var buf bytes.Buffer
	if err := WriteComparisonText(c, &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"warning: no cap: at 4, 8 users", "reads per txn", "cache hit ratio"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("compare text lacks %q", want)
		}
	}
	buf.Reset()
	if err := WriteComparisonHTML(c, &buf, CompareHTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `<p class="alert">Not comparable: no cap: at 4, 8 users`) {
		t.Error("compare HTML lacks the regime alert")
	}

	// Both runs memory-resident: alike, and still not a comparison of storage.
	c, _ = compare.Compare([]results.Input{mem, readFixture(t, "memory_resident.json")})
	if w := c.RegimeWarnings(); len(w) != 2 || !strings.Contains(w[0], "from memory") || !strings.Contains(w[1], "from memory") {
		t.Errorf("two memory-resident runs: warnings %q, want one for each", w)
	}
	// Storage figures from the database's own views only: the regime is unknown.
	views := readFixture(t, "storage_bound.json")
	for i := range views.Run.Steps {
		views.Run.Steps[i].IO.Source = "pg_stat_io"
	}
	c, _ = compare.Compare([]results.Input{disk, views})
	if w := c.RegimeWarnings(); len(w) != 1 || !strings.Contains(w[0], "the data source is unknown: no device counters") {
		t.Errorf("views-only run: warnings %q, want the unknown regime", w)
	}

	// Same regime, sizes within 10 %, same cap: nothing to warn about.
	disk2 := readFixture(t, "storage_bound.json")
	disk2.Run.Database.SizeBytes = disk.Run.Database.SizeBytes * 105 / 100
	c, _ = compare.Compare([]results.Input{disk, disk2})
	if w := c.RegimeWarnings(); len(w) != 0 {
		t.Errorf("warnings for comparable runs: %q", w)
	}
	disk2.Run.Database.SizeBytes = disk.Run.Database.SizeBytes * 2
	disk2.Run.Database.MemoryCapBytes = disk.Run.Database.MemoryCapBytes * 109 / 100
	c, _ = compare.Compare([]results.Input{disk, disk2})
	if w := c.RegimeWarnings(); len(w) != 1 || !strings.Contains(w[0], "differ in size (960 MiB vs 480 MiB") {
		t.Errorf("size warning: %q", w)
	}
}

func TestStorageCSV(t *testing.T) {
	in := readFixture(t, "storage_bound.json")
	figures.SetStepFlags(in.Run)
	mem := readFixture(t, "memory_resident.json")
	figures.SetStepFlags(mem.Run)
	var buf bytes.Buffer
	if err := WriteStepsCSV(&buf, []results.Input{in, mem}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, n := range rows[0] {
		col[n] = i
	}
	r := rows[2] // storage-bound, 8 users
	if r[col["reads_per_txn"]] != "18.5" || r[col["cache_hit_ratio"]] != "0.925" || r[col["memory_cap_bytes"]] != "268435456" ||
		r[col["db_size_bytes"]] != "503316480" || r[col["flags"]] != "" {
		t.Errorf("storage-bound row %v", r)
	}
	if r := rows[3]; r[col["flags"]] != "knee;memory-resident" || r[col["memory_cap_bytes"]] != "" {
		t.Errorf("memory-resident row flags %q cap %q", r[col["flags"]], r[col["memory_cap_bytes"]])
	}
}

func TestReadWriteRatio(t *testing.T) {
	for _, c := range []struct {
		r, w float64
		want string
	}{{6919, 751, "9.2 : 1"}, {1.5, 1138, "1 : 758.7"}, {0, 0, "-"}, {5, 0, "∞ : 1"}, {0, 10, "0 : 1"}, {10, 10, "1.0 : 1"}} {
		if got := readWriteRatio(c.r, c.w); got != c.want {
			t.Errorf("readWriteRatio(%v, %v) = %q, want %q", c.r, c.w, got, c.want)
		}
	}
}

func TestReportHTMLShowsRegime(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteReportHTML(&buf, readFixture(t, "memory_resident.json"), runfixture.Workload()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<th>reads/txn</th>", "<th>hit ratio</th>", "M memory-resident", "M: memory-resident (at 4, 8 users)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report HTML lacks %q", want)
		}
	}
}
