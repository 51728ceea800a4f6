package loader

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Marker is the row of bb_load: what was loaded and whether the load finished. Later
// commands (run, check) read the scale and seed from it.
type Marker struct {
	Scale            schema.Scale
	Seed             uint64
	GeneratorVersion int
	StartedAt        time.Time
	CompletedAt      *time.Time // nil while the load runs or after it failed
	ToolVersion      string
	Workers          int
}

// ErrNoLoad is returned by ReadMarker when the database holds no brokerbench load.
var ErrNoLoad = errors.New("no brokerbench load found")

func writeMarker(ctx context.Context, db database.DB, o Options) error {
	cols := []string{"load_id", "customers", "trade_days", "seed", "generator_version", "started_at", "completed_at", "tool_version", "workers"}
	row := []any{int16(1), o.Scale.Customers, int32(o.Scale.TradeDays), int64(o.Seed), int32(GeneratorVersion),
		time.Now().UTC().Truncate(time.Microsecond), nil, o.ToolVersion, int32(o.Workers)}
	// The generic bulk path inserts the row without dialect-specific placeholders.
	if _, err := db.Bulk(ctx, schema.LoadMarkerTable, cols, &oneRow{row: row}); err != nil {
		return fmt.Errorf("write load marker: %w", err)
	}
	return nil
}

type oneRow struct {
	row  []any
	done bool
}

func (r *oneRow) Next() bool {
	if r.done {
		return false
	}
	r.done = true
	return true
}
func (r *oneRow) Values() ([]any, error) { return r.row, nil }
func (r *oneRow) Err() error             { return nil }

// ReadMarker returns the load recorded in db. It fails with ErrNoLoad when there is
// none and ErrUnfinished (with the marker) when the load did not complete; both
// messages tell the user what to run.
func ReadMarker(ctx context.Context, db database.DB) (Marker, error) {
	var m Marker
	var n int64
	eng, err := database.Of(db)
	if err != nil {
		return m, err
	}
	if err := db.QueryRow(ctx, eng.TablesSQL("COUNT(*)", "table_name = '"+schema.LoadMarkerTable+"'")).Scan(&n); err != nil {
		return m, fmt.Errorf("look for a brokerbench load in %s: %w", db.Target(), err)
	}
	if n == 0 {
		return m, fmt.Errorf("%w in %s; run `brokerbench load` first", ErrNoLoad, db.Target())
	}
	var customers, seed int64
	var days, ver, workers int32
	err = db.QueryRow(ctx, "SELECT customers, trade_days, seed, generator_version, started_at, completed_at, tool_version, workers FROM "+
		schema.LoadMarkerTable+" WHERE load_id = 1").Scan(&customers, &days, &seed, &ver, &m.StartedAt, &m.CompletedAt, &m.ToolVersion, &workers)
	if errors.Is(err, database.ErrNoRows) {
		return m, fmt.Errorf("%w in %s; run `brokerbench load` first", ErrNoLoad, db.Target())
	}
	if err != nil {
		return m, fmt.Errorf("read the load marker in %s: %w", db.Target(), err)
	}
	m.Scale = schema.Scale{Customers: customers, TradeDays: int(days)}
	m.Seed, m.GeneratorVersion, m.Workers = uint64(seed), int(ver), int(workers)
	if m.CompletedAt == nil {
		return m, fmt.Errorf("%w: the load in %s did not finish; run \"brokerbench load --resume\" to continue it or \"brokerbench load --drop\" to start over", ErrUnfinished, db.Target())
	}
	return m, nil
}
