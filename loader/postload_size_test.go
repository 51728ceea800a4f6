package loader

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// sizer answers TableBytes with a fixed result; nothing else of the pool is used by
// tableStats.
type sizer struct {
	database.DB
	calls int
	err   error
}

func (s *sizer) TableBytes(context.Context, string) (int64, int64, error) {
	s.calls++
	if s.err != nil {
		return 0, 0, s.err
	}
	return 8192, 16384, nil
}

// A server without the size views (the engine marks that database.ErrUnavailable)
// leaves the sizes out and says why, once; any other error still fails the load.
func TestTableStatsToleratesUnavailableSizes(t *testing.T) {
	tr := NewTracker(schema.Scale{Customers: 1000, TradeDays: 5})
	ctx := context.Background()

	ok := &sizer{}
	st, unknown, err := tableStats(ctx, ok, tr)
	if err != nil || unknown != "" || len(st) != len(tr.Tables) || st[0].TotalBytes != 16384 {
		t.Fatalf("sizes readable: %d tables, unknown %q, err %v", len(st), unknown, err)
	}

	missing := &sizer{err: fmt.Errorf("sys.allocation_units does not exist on this server: %w", database.ErrUnavailable)}
	st, unknown, err = tableStats(ctx, missing, tr)
	if err != nil {
		t.Fatalf("an unavailable size view failed the load: %v", err)
	}
	if len(st) != len(tr.Tables) || st[0].HeapBytes != 0 || st[0].TotalBytes != 0 {
		t.Errorf("tables %d of %d, first %+v: want every table with sizes 0", len(st), len(tr.Tables), st[0])
	}
	if !strings.Contains(unknown, "sys.allocation_units") {
		t.Errorf("unknown = %q, want the reason", unknown)
	}
	if missing.calls != 1 {
		t.Errorf("asked %d times after the view was found missing, want once", missing.calls)
	}

	broken := &sizer{err: errors.New("connection reset")}
	if _, _, err := tableStats(ctx, broken, tr); err == nil {
		t.Error("a broken connection was tolerated")
	}
}
