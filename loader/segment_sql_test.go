package loader

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/database/sqlserver"
	"github.com/brokerbench/brokerbench/internal/testkit/golden"
)

// The progress table and its statements as each database runs them (golden files): SQL
// Server's are checked here only, as no SQL Server runs in CI.
func TestSegmentSQLGolden(t *testing.T) {
	for _, e := range []*database.Engine{postgres.Engine, sqlserver.Engine} {
		var b strings.Builder
		b.WriteString("-- the load's progress table and statements (golden; regenerate with go test ./loader -run SegmentSQL -update)\n\n")
		b.WriteString(e.DDL.CreateTable(segmentTable()) + ";\n\n")
		for _, stmt := range []string{recordSegment, selectProgress, dropClaim} {
			b.WriteString(e.SQL(stmt) + ";\n")
		}
		b.WriteString(e.DDL.DropTable(segmentTable()) + ";\n")
		golden.Check(t, filepath.Join("testdata", "segment_"+string(e.Name)+".sql"), "the segment SQL of "+string(e.Name), b.String())
	}
}
