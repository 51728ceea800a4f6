package loader_test

import (
	"context"
	"math"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testdb"
	"github.com/brokerbench/brokerbench/loader"
)

// TestSizeModelAgainstALoad checks the --size model against a real load: the
// shared loaded database's size on disk (pg_database_size) is within 10 % of what
// the model says for its scale.
func TestSizeModelAgainstALoad(t *testing.T) {
	db := open(t, testdb.Loaded(t))
	got, err := database.DatabaseBytes(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	want := loader.SizeModelFor("postgres").Bytes(testdb.Scale)
	off := float64(got-want) / float64(got)
	t.Logf("%d customers x %d days: loaded %.1f MiB, model %.1f MiB (%+.1f %%)", testdb.Scale.Customers, testdb.Scale.TradeDays,
		float64(got)/(1<<20), float64(want)/(1<<20), off*100)
	if math.Abs(off) > 0.10 {
		t.Errorf("the size model is %.1f %% off the loaded size", off*100)
	}
}
