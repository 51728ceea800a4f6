package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// pgAndMariaDB are two runs of the same load, one on PostgreSQL and one on MariaDB,
// each with settings of its own.
func pgAndMariaDB() (pg, mdb *results.Run) {
	pg = runfixture.SampleRun("pg", []int{50, 100}, 1, 1, 1)
	pg.Database.Settings = map[string]string{"shared_buffers": "16384kB", "fsync": "on"}
	mdb = runfixture.SampleRun("mdb", []int{50, 100}, 1, 1, 2)
	mdb.Database = results.Database{Product: "MariaDB", Version: "11.4.3",
		Settings: map[string]string{"innodb_buffer_pool_size": "134217728", "sync_binlog": "0"}}
	return pg, mdb
}

// Across databases each side's settings are listed under its database's name, not
// paired by name as "X vs -", which reads as if one side lacked the setting; the text,
// the HTML report and the JSON all say so. Between two runs of one database a setting
// is still one line with both values.
func TestCompareListsEachDatabasesOwnSettings(t *testing.T) {
	pg, mdb := pgAndMariaDB()
	c, err := compare.Compare([]results.Input{{Path: "pg.json", Run: pg}, {Path: "mdb.json", Run: mdb}})
	if err != nil {
		t.Fatal(err)
	}
	var text, html, js bytes.Buffer
	if err := WriteComparisonText(c, &text); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonHTML(c, &html, CompareHTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonJSON(c, &js); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"text": text.String(), "HTML": html.String(), "JSON": js.String()} {
		for _, want := range []string{"MariaDB settings: innodb_buffer_pool_size=134217728, sync_binlog=0",
			"PostgreSQL settings: fsync=on, shared_buffers=16384kB", "database: MariaDB 11.4.3 vs PostgreSQL 17.2"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", what, want, out)
			}
		}
		if strings.Contains(out, "setting shared_buffers") || strings.Contains(out, "setting sync_binlog") {
			t.Errorf("%s pairs settings of two databases by name:\n%s", what, out)
		}
	}

	pg2 := runfixture.SampleRun("pg2", []int{50, 100}, 1, 1, 3)
	pg2.Database.Settings = map[string]string{"shared_buffers": "32768kB", "fsync": "on"}
	c, err = compare.Compare([]results.Input{{Path: "pg.json", Run: pg}, {Path: "pg2.json", Run: pg2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Differences(1), "\n"); got != "setting shared_buffers: 32768kB vs 16384kB\ntag controller: pg2 vs pg" {
		t.Errorf("one database's differences:\n%s", got)
	}
}

// The same load takes other bytes on MariaDB than on PostgreSQL: compare says the
// sizes differ by engine (a note) rather than warning that the data differ, and warns
// when the loads themselves differ. Between runs of one database a size that differs
// is still a warning.
func TestCompareSizesAcrossDatabases(t *testing.T) {
	pg, mdb := pgAndMariaDB()
	pg.Database.SizeBytes, mdb.Database.SizeBytes = 480<<20, 960<<20
	mdb.Seed = pg.Seed
	c, err := compare.Compare([]results.Input{{Path: "pg.json", Run: pg}, {Path: "mdb.json", Run: mdb}})
	if err != nil {
		t.Fatal(err)
	}
	var text, html bytes.Buffer
	if err := WriteComparisonText(c, &text); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonHTML(c, &html, CompareHTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	note := "mdb vs pg: the same load (1000 customers, 5 trade days, seed 1) takes 960 MiB on MariaDB and 480 MiB on PostgreSQL: the sizes differ by engine, not by data."
	for what, out := range map[string]string{"text": text.String(), "HTML": html.String()} {
		if strings.Contains(out, "differ in size") || !strings.Contains(out, note) {
			t.Errorf("%s: want the note %q and no size warning:\n%s", what, note, out)
		}
	}
	if w := pairWarnings(c); len(w) != 0 {
		t.Errorf("the same load on two databases: warnings %q", w)
	}

	mdb.Scale.TradeDays = 10
	c, _ = compare.Compare([]results.Input{{Path: "pg.json", Run: pg}, {Path: "mdb.json", Run: mdb}})
	w := pairWarnings(c)
	if len(w) != 1 || w[0] != "mdb vs pg: the loads differ (1000 customers, 10 trade days, seed 1 vs 1000 customers, 5 trade days, seed 1); their tps are not comparable." {
		t.Errorf("two loads on two databases: warnings %q", w)
	}
	if n := c.RegimeNotes(); len(n) != 0 {
		t.Errorf("two loads on two databases: notes %q", n)
	}

	pg2 := runfixture.SampleRun("pg2", []int{50, 100}, 1, 1, 1)
	pg2.Database.SizeBytes = 960 << 20
	c, _ = compare.Compare([]results.Input{{Path: "pg.json", Run: pg}, {Path: "pg2.json", Run: pg2}})
	if w := pairWarnings(c); len(w) != 1 || !strings.Contains(w[0], "differ in size (960 MiB vs 480 MiB") {
		t.Errorf("one database, two sizes: warnings %q", w)
	}
}

// pairWarnings are the warnings about a run against the base ("B vs A: ..."), not
// those about one run's steps (the sample runs' regime is unknown).
func pairWarnings(c *compare.Comparison) []string {
	var out []string
	for _, w := range c.RegimeWarnings() {
		if head, _, _ := strings.Cut(w, ":"); strings.Contains(head, " vs ") {
			out = append(out, w)
		}
	}
	return out
}
