package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/brokerbench/brokerbench/database"
)

var (
	_ database.Pipeliner = pgTx{}
	_ database.Pipeliner = pgConnTx{}
)

// pgPipeline sends qs as one pgx batch: all statements go out together and their
// results are read back in order.
func pgPipeline(ctx context.Context, send func(context.Context, *pgx.Batch) pgx.BatchResults, qs []database.Queued) error {
	b := &pgx.Batch{}
	for _, q := range qs {
		b.Queue(q.SQL, withCents(q.Args)...)
	}
	br := send(ctx, b)
	for _, q := range qs {
		rows, err := br.Query()
		if err := database.ScanQueued(pgRows{rows}, err, q.Scan); err != nil {
			_ = br.Close()
			return err
		}
	}
	return br.Close()
}

func (t pgTx) Pipeline(ctx context.Context, qs []database.Queued) error {
	return pgPipeline(ctx, t.tx.SendBatch, qs)
}

func (t pgConnTx) Pipeline(ctx context.Context, qs []database.Queued) error {
	return pgPipeline(ctx, t.c.SendBatch, qs)
}
