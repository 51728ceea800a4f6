package testdb

import (
	"context"
	"os"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
)

func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }

func TestLoadedHasACompleteLoad(t *testing.T) {
	dsn := Loaded(t)
	ctx := context.Background()
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	m, err := loader.ReadMarker(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if m.Scale != Scale || m.Seed != Seed || m.GeneratorVersion != loader.GeneratorVersion {
		t.Fatalf("marker = %+v, want scale %+v seed %d", m, Scale, Seed)
	}
	var trades int64
	if err := db.QueryRow(ctx, "SELECT count(*) FROM trade").Scan(&trades); err != nil {
		t.Fatal(err)
	}
	if want := Scale.Trades(); trades != want {
		t.Fatalf("trades = %d, want %d", trades, want)
	}
}
