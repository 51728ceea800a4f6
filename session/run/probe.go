package run

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
)

// openProbe opens the liveness probe's connection (driver.Config.Probe): SELECT 1,
// which a slow server answers and a stopped one does not.
func (s *runSession) openProbe(ctx context.Context) error {
	db, err := database.Open(ctx, s.tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench probe"})
	if err != nil {
		return err
	}
	s.undo = append(s.undo, db.Close)
	s.probe = func(ctx context.Context) error {
		var one int
		return db.QueryRow(ctx, "SELECT 1").Scan(&one)
	}
	return nil
}
