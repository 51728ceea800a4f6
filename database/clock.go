package database

import (
	"context"
	"fmt"
	"time"
)

// ServerTime reads the database server's clock through db (its engine's ClockSQL),
// the reference a sharded run's drivers measure their clocks' offsets against.
func ServerTime(ctx context.Context, db DB) (time.Time, error) {
	e, err := Of(db)
	if err != nil {
		return time.Time{}, err
	}
	var t time.Time
	if err := db.QueryRow(ctx, e.ClockSQL).Scan(&t); err != nil {
		return time.Time{}, fmt.Errorf("read the server's clock: %w", err)
	}
	return t, nil
}
