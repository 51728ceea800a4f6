package sqlserver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/golden"
)

// The statements of resumable and sharded loads and of a run's mark, as the golden file holds them: no
// SQL Server runs in CI, so a change to them is reviewed here.
func TestLoadStateSQLGolden(t *testing.T) {
	var b strings.Builder
	b.WriteString("-- brokerbench SQL Server statements of resumable and sharded loads (golden; regenerate with -update)\n\n")
	b.WriteString("-- take the load's application lock\n" + lockSQL + "\n\n")
	b.WriteString("-- release it\n" + unlockSQL + ";\n\n")
	b.WriteString("-- a run's mark on its database: the lock if free within 1 ms, which SQL Server and Babelfish both answer with -1 when another session holds it (0 or 1: taken)\n" + tryLockSQL + "\n\n")
	b.WriteString("-- what a post-load already built\n" + catalogSQL + ";\n\n")
	b.WriteString("-- an unusable index before it is rebuilt\n" + (&MSSQL{}).DropIndex("trade", "i_t_st_id") + ";\n")
	golden.Check(t, filepath.Join("testdata", "sqlserver_loadstate.sql"), "load-state SQL", b.String())
}
