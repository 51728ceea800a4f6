package loader

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/database/sqlserver"
)

var updateSegmentSQL = flag.Bool("update-segment-sql", false, "rewrite testdata/segment_*.sql")

// The progress table and its statements as each database runs them (golden files): SQL
// Server's are checked here only, as no SQL Server runs in CI.
func TestSegmentSQLGolden(t *testing.T) {
	for _, e := range []*database.Engine{postgres.Engine, sqlserver.Engine} {
		var b strings.Builder
		b.WriteString("-- the load's progress table and statements (golden; regenerate with go test ./loader -run SegmentSQL -update-segment-sql)\n\n")
		b.WriteString(e.DDL.CreateTable(segmentTable()) + ";\n\n")
		for _, stmt := range []string{recordSegment, selectProgress, dropClaim} {
			b.WriteString(e.SQL(stmt) + ";\n")
		}
		b.WriteString(e.DDL.DropTable(segmentTable()) + ";\n")
		path := filepath.Join("testdata", "segment_"+string(e.Name)+".sql")
		if *updateSegmentSQL {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update-segment-sql to create it)", err)
		}
		if b.String() != string(want) {
			t.Errorf("%s differs; if intended, rerun with -update-segment-sql and review the diff", path)
		}
	}
}
