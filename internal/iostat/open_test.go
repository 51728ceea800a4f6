package iostat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

// failingViews is a database whose I/O views fail to open with err; the embedded
// nil DB is never called.
type failingViews struct {
	database.DB
	err error
}

func (f failingViews) OpenIOStats(context.Context) (database.IOStatsReader, error) { return nil, f.err }

// A missing grant and a broken query both leave the run without the views, but only
// the first may say "not readable (missing permission)": the SQL Server test skips on
// that phrase and fails on anything else.
func TestOpenTellsPermissionFromFailure(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("read views: %w", database.ErrPermission), "not readable (missing permission)"},
		{errors.New("read views: Invalid column name 'num_of_reads'"), "reading the database's I/O views failed"},
	} {
		var logged []string
		s, err := Open(t.Context(), Options{DB: failingViews{err: c.err},
			Log: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		joined := strings.Join(logged, "\n")
		if !strings.Contains(joined, c.want) || !strings.Contains(joined, c.err.Error()) {
			t.Errorf("%v: logged %q, want %q with the error", c.err, joined, c.want)
		}
		if c.want != "not readable (missing permission)" && strings.Contains(joined, "missing permission") {
			t.Errorf("%v: a failure passed for a permission problem: %q", c.err, joined)
		}
	}
}
