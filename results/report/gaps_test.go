package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

// A run on a server without I/O or size views says in the report which figures are
// missing and why, in the words the run recorded; one that has them says nothing.
func TestReportSaysWhatTheServerCouldNotGive(t *testing.T) {
	r := runfixture.SampleRun("bbf", []int{2, 4}, 1, 1, 7)
	r.Database = results.Database{Product: "Babelfish for PostgreSQL", Version: "4.2.0",
		Notes:       []string{"Babelfish for PostgreSQL 4.2.0 is not Microsoft's SQL Server"},
		Unavailable: map[string]string{UnavailableSize: "database size: sys.allocation_units does not exist on this server"}}
	for i := range r.Steps {
		r.Steps[i].IO = &results.StepIO{Source: "none", Note: "no usable I/O source: the server did not say where its data files are; the database's I/O views: read sqlserver_file_stats: the I/O view sys.dm_io_virtual_file_stats does not exist on this server"}
	}
	var b bytes.Buffer
	if err := WriteReport(&b, results.Input{Path: "bbf.json", Run: r}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Babelfish for PostgreSQL 4.2.0, 1000 customers",
		"server: Babelfish for PostgreSQL 4.2.0 is not Microsoft's SQL Server",
		"not measured: IOPS, I/O per transaction and the storage regime (no I/O source: the server did not say where its data files are; the database's I/O views: read sqlserver_file_stats: the I/O view sys.dm_io_virtual_file_stats does not exist on this server)",
		"not measured: the database's size (database size: sys.allocation_units does not exist on this server)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "not measured: IOPS"); n != 1 {
		t.Errorf("the same reason given %d times, want once", n)
	}

	measured := runfixture.SampleRun("pg", []int{2, 4}, 1, 1, 7)
	b.Reset()
	if err := WriteReport(&b, results.Input{Path: "pg.json", Run: measured}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "not measured") || strings.Contains(b.String(), "server:") {
		t.Errorf("a run with its figures reports gaps:\n%s", b.String())
	}
}
