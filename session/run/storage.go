package run

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session/target"
)

// recordStorageRegime stores the server's memory cap and the database's size in the
// run, so report and compare can tell storage-bound runs from memory-resident ones.
func recordStorageRegime(ctx context.Context, run *results.Run, tgt *target.Target, db database.DB, logf func(string, ...any)) {
	run.Database.MemoryCapBytes = tgt.MemoryCap()
	size, err := database.DatabaseBytes(ctx, db)
	if err != nil {
		logf("run: the database's size is unknown (%v); compare cannot check that runs used the same data", err)
		if run.Database.Unavailable == nil {
			run.Database.Unavailable = map[string]string{}
		}
		run.Database.Unavailable[report.UnavailableSize] = err.Error()
		return
	}
	run.Database.SizeBytes = size
	if run.Database.MemoryCapBytes > 0 {
		logf("run: database %s, server memory capped at %s", bytesize.Format(size), bytesize.Format(run.Database.MemoryCapBytes))
	}
}
