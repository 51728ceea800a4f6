package txn

import (
	"context"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/dialect"
)

// Trade-Cleanup (tpce.md §6.12): once before a run, cancel what an earlier run left
// in flight - every pending limit order (with its request) and every submitted
// run-time trade - so the new run starts from a clean market. Read committed, as
// DBT-5 runs it; nothing else runs at the time.

// TradeCleanupOutput counts what was canceled.
type TradeCleanupOutput struct {
	Pending, Submitted int
}

func (e *executor) tradeCleanup(ctx context.Context) (Outcome, error) {
	o, _, err := e.tradeCleanupRun(ctx)
	return o, err
}

func (e *executor) tradeCleanupRun(ctx context.Context) (Outcome, TradeCleanupOutput, error) {
	out := Outcome{Kind: TradeCleanup}
	var res TradeCleanupOutput
	err := e.inTx(ctx, &out, dialect.ReadCommitted, func(tx dialect.Tx) error {
		res = TradeCleanupOutput{}
		now := e.now()
		// Pending limit orders: submitted, then canceled, then their requests go.
		var pending []int64
		rows, err := tx.Query(ctx, e.sql.TradeCleanupRequests)
		err = scanRows(rows, err, func(r dialect.Rows) error {
			var id int64
			if err := r.Scan(&id); err != nil {
				return err
			}
			pending = append(pending, id)
			return nil
		})
		if err != nil {
			return frameErr(TradeCleanup, 1, "trade requests", err)
		}
		for _, id := range pending {
			if err := execOne(ctx, tx, TradeCleanup, 1, "insert history", e.sql.TradeCleanupInsertHistory, id, now, schema.StatusSubmitted); err != nil {
				return err
			}
			if err := execOne(ctx, tx, TradeCleanup, 1, "cancel trade", e.sql.TradeCleanupCancelTrade, now, schema.StatusCanceled, id); err != nil {
				return err
			}
			if err := execOne(ctx, tx, TradeCleanup, 1, "insert history", e.sql.TradeCleanupInsertHistory, id, now, schema.StatusCanceled); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, e.sql.TradeCleanupDeleteRequests); err != nil {
			return frameErr(TradeCleanup, 1, "delete requests", err)
		}
		res.Pending = len(pending)
		// Submitted run-time trades that never got their Trade-Result.
		var submitted []int64
		rows, err = tx.Query(ctx, e.sql.TradeCleanupSubmitted, e.sc.FirstRunTradeID(), schema.StatusSubmitted)
		err = scanRows(rows, err, func(r dialect.Rows) error {
			var id int64
			if err := r.Scan(&id); err != nil {
				return err
			}
			submitted = append(submitted, id)
			return nil
		})
		if err != nil {
			return frameErr(TradeCleanup, 1, "submitted trades", err)
		}
		for _, id := range submitted {
			if err := execOne(ctx, tx, TradeCleanup, 1, "cancel trade", e.sql.TradeCleanupCancelTrade, now, schema.StatusCanceled, id); err != nil {
				return err
			}
			if err := execOne(ctx, tx, TradeCleanup, 1, "insert history", e.sql.TradeCleanupInsertHistory, id, now, schema.StatusCanceled); err != nil {
				return err
			}
		}
		res.Submitted = len(submitted)
		return nil
	})
	return out, res, err
}
