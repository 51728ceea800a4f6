package loader_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
)

// sizingScale is the second scale the --size model is checked at, beside the shared
// template's (testdb.Scale): twice the trade days, so the two loads also measure
// the growth per trade day that a --size plan stretches to 300 days.
var sizingScale = schema.Scale{Customers: schema.LoadUnit, TradeDays: 2 * testdb.Scale.TradeDays}

// TestSizeModelAgainstLoads checks the --size model against two real loads: the
// shared loaded template and a load of its own at twice the trade days. Each
// database's size on disk (pg_database_size) is within 10 % of what the model says
// for its scale, and so is the growth from one to the other (the model's bytes per
// load unit and trade day, which a --size plan multiplies by up to 300 days).
func TestSizeModelAgainstLoads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	model := loader.SizeModelFor("postgres")
	size := func(dsn string) int64 {
		got, err := database.DatabaseBytes(ctx, open(t, dsn))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	dsn := testpg.NewDB(t)
	if _, err := loader.Load(ctx, open(t, dsn), loader.Options{Scale: sizingScale, Seed: testdb.Seed, ToolVersion: "test"}, nil); err != nil {
		t.Fatal(err)
	}
	loaded := map[schema.Scale]int64{testdb.Scale: size(testdb.Loaded(t)), sizingScale: size(dsn)}
	within := func(what string, got, want int64) {
		t.Helper()
		off := float64(want-got) / float64(got)
		t.Logf("%s: loaded %.1f MiB, model %.1f MiB (%+.1f %%)", what, float64(got)/(1<<20), float64(want)/(1<<20), off*100)
		if math.Abs(off) > 0.10 {
			t.Errorf("%s: the size model is %+.1f %% off the loaded size", what, off*100)
		}
	}
	for _, sc := range []schema.Scale{testdb.Scale, sizingScale} {
		within(fmt.Sprintf("%d customers x %d days", sc.Customers, sc.TradeDays), loaded[sc], model.Bytes(sc))
	}
	within(fmt.Sprintf("growth from %d to %d days", testdb.Scale.TradeDays, sizingScale.TradeDays),
		loaded[sizingScale]-loaded[testdb.Scale], model.Bytes(sizingScale)-model.Bytes(testdb.Scale))
}
