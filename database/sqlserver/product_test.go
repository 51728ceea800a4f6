package sqlserver

import (
	"context"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

// Microsoft's servers are recorded as they report themselves, with a warning below
// the supported versions where the version means the release; another T-SQL server
// is said to be one.
func TestDescribeEndpoint(t *testing.T) {
	for _, c := range []struct {
		name     string
		e        endpoint
		version  string
		edition  string // SERVERPROPERTY('EngineEdition')
		wantNote string // "" for none
	}{
		{"2022", endpoint{banner: "Microsoft SQL Server 2022 (RTM-CU12) - 16.0.4120.1 (X64)"}, "16.0.4120.1", "3", ""},
		{"2019", endpoint{banner: "Microsoft SQL Server 2019 (RTM-CU27) - 15.0.4375.4 (X64)"}, "15.0.4375.4", "2", ""},
		{"2017", endpoint{banner: "Microsoft SQL Server 2017 (RTM-CU31) - 14.0.3456.2 (X64)"}, "14.0.3456.2", "3", "SQL Server 14.0.3456.2 is older than the supported versions"},
		{"Azure SQL Database", endpoint{banner: "Microsoft SQL Azure (RTM) - 12.0.2000.8"}, "12.0.2000.8", "5", ""},
		{"other", endpoint{banner: "SomeEngine 1.0 speaking T-SQL"}, "12.0.2000.8", "3", `the server is not Microsoft's SQL Server (@@VERSION: "SomeEngine 1.0 speaking T-SQL")`},
	} {
		info := database.ServerInfo{Product: Engine.Product, Version: c.version, Settings: map[string]string{"engine_edition": c.edition}}
		(&MSSQL{endpoint: c.e}).describeEndpoint(context.Background(), &info)
		if info.Product != "SQL Server" || info.Version != c.version {
			t.Errorf("%s: recorded as %s %s", c.name, info.Product, info.Version)
		}
		switch {
		case c.wantNote == "" && len(info.Notes) > 0:
			t.Errorf("%s: notes %q, want none", c.name, info.Notes)
		case c.wantNote != "" && (len(info.Notes) != 1 || !strings.Contains(info.Notes[0], c.wantNote)):
			t.Errorf("%s: notes %q, want %q", c.name, info.Notes, c.wantNote)
		}
	}
}

func TestBabelfishVersionNum(t *testing.T) {
	for v, want := range map[string]int{"4.2.0": 40200, "3.10.1": 31001, "4.2": 0, "": 0, "4.x.0": 0} {
		if got := babelfishVersionNum(v); got != want {
			t.Errorf("babelfishVersionNum(%q) = %d, want %d", v, got, want)
		}
	}
}

// On Babelfish a table with DECIMAL columns is copied through a stage whose decimals
// have precision 38 (the 16-byte encoding it reads) and the tables' own scale; other
// tables need none.
func TestBabelfishStage(t *testing.T) {
	st, ok := babelfishStage("settlement", []string{"se_t_id", "se_cash_type", "se_cash_due_date", "se_amt"})
	if !ok {
		t.Fatal("settlement (se_amt DECIMAL) has no stage")
	}
	want := bulkStage{
		name:   "#bb_stage_settlement",
		create: "CREATE TABLE #bb_stage_settlement (se_t_id BIGINT NULL, se_cash_type VARCHAR(40) NULL, se_cash_due_date DATE NULL, se_amt DECIMAL(38,2) NULL)",
		move:   "INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt) SELECT se_t_id, se_cash_type, se_cash_due_date, se_amt FROM #bb_stage_settlement",
		drop:   "DROP TABLE #bb_stage_settlement",
	}
	if st != want {
		t.Errorf("stage\n%+v\nwant\n%+v", st, want)
	}
	if _, ok := babelfishStage("status_type", []string{"st_id", "st_name"}); ok {
		t.Error("status_type has no DECIMAL column but got a stage")
	}
	if _, ok := babelfishStage("no_such_table", []string{"x"}); ok {
		t.Error("an unknown table got a stage")
	}
}

// Targets are shown as docs/sqlserver.md §1 says, never as the URL.
func TestShownTarget(t *testing.T) {
	got := database.Shown("sqlserver://bench:S3cret%40x@db1:1444?database=bb&encrypt=disable&brokerbench_read_committed=rcsi")
	if got != "db1:1444, database bb, user bench" {
		t.Errorf("Shown = %q", got)
	}
	if got := database.Shown("sqlserver://bench:S3cret@db1?encrypt=maybe"); strings.Contains(got, "S3cret") {
		t.Errorf("unreadable DSN shown with its password: %q", got)
	}
}
