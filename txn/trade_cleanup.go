package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
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
	err := e.inTx(ctx, &out, database.ReadCommitted, func(tx database.Tx) error {
		res = TradeCleanupOutput{}
		now := e.now()
		if err := e.tcPending(ctx, tx, now, &res); err != nil {
			return err
		}
		return e.tcSubmitted(ctx, tx, now, &res)
	})
	return out, res, err
}

// tradeIDList reads a list of trade ids.
func tradeIDList(ctx context.Context, tx database.Tx, sql string, args ...any) ([]int64, error) {
	var ids []int64
	rows, err := tx.Query(ctx, sql, args...)
	err = scanRows(rows, err, func(r database.Rows) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
		return nil
	})
	return ids, err
}

// tcPending cancels every pending limit order: history SBMT then CNCL, the trade
// CNCL, and finally all requests deleted.
func (e *executor) tcPending(ctx context.Context, tx database.Tx, now time.Time, res *TradeCleanupOutput) error {
	pending, err := tradeIDList(ctx, tx, e.sql.TradeCleanupRequests)
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
	return nil
}

// tcSubmitted cancels the run-time trades still submitted: their Trade-Result never
// came.
func (e *executor) tcSubmitted(ctx context.Context, tx database.Tx, now time.Time, res *TradeCleanupOutput) error {
	submitted, err := tradeIDList(ctx, tx, e.sql.TradeCleanupSubmitted, e.sc.FirstRunTradeID(), schema.StatusSubmitted)
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
}
