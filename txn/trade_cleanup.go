package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Cleanup (docs/workload.md §9.12): once before a run, cancel what an earlier run left
// in flight - every pending limit order (with its request) and every submitted
// run-time trade - so the new run starts from a clean market. Read committed, as
// DBT-5 runs it; nothing else runs at the time.

// TradeCleanupOutput counts what was canceled.
type TradeCleanupOutput struct {
	Pending, Submitted int
}

// runTradeCleanup runs Trade-Cleanup (its catalogue row); it takes no inputs.
func (e *executor) runTradeCleanup(ctx context.Context) (Outcome, error) {
	o, _, err := e.tradeCleanupRun(ctx)
	return o, err
}

func (e *executor) tradeCleanupRun(ctx context.Context) (Outcome, TradeCleanupOutput, error) {
	out := Outcome{Kind: TradeCleanup}
	var res TradeCleanupOutput
	if e.server {
		err := e.callRoutine(ctx, &out, database.ReadCommitted, &res,
			e.now(), e.sc.FirstRunTradeID(), schema.StatusSubmitted, schema.StatusCanceled)
		return out, res, err
	}
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
	pending, err := tradeIDList(ctx, tx, e.sql.of(tradeCleanupRequests))
	if err != nil {
		return frameErr(TradeCleanup, 1, "trade requests", err)
	}
	for _, id := range pending {
		if err := execOne(ctx, tx, frameStmt{TradeCleanup, 1, "insert history"}, e.sql.of(tradeCleanupInsertHistory), id, now, schema.StatusSubmitted); err != nil {
			return err
		}
		if err := execOne(ctx, tx, frameStmt{TradeCleanup, 1, "cancel trade"}, e.sql.of(tradeCleanupCancelTrade), now, schema.StatusCanceled, id); err != nil {
			return err
		}
		if err := execOne(ctx, tx, frameStmt{TradeCleanup, 1, "insert history"}, e.sql.of(tradeCleanupInsertHistory), id, now, schema.StatusCanceled); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, e.sql.of(tradeCleanupDeleteRequests)); err != nil {
		return frameErr(TradeCleanup, 1, "delete requests", err)
	}
	res.Pending = len(pending)
	return nil
}

// tcSubmitted cancels the run-time trades still submitted: their Trade-Result never
// came.
func (e *executor) tcSubmitted(ctx context.Context, tx database.Tx, now time.Time, res *TradeCleanupOutput) error {
	submitted, err := tradeIDList(ctx, tx, e.sql.of(tradeCleanupSubmitted), e.sc.FirstRunTradeID(), schema.StatusSubmitted)
	if err != nil {
		return frameErr(TradeCleanup, 1, "submitted trades", err)
	}
	for _, id := range submitted {
		if err := execOne(ctx, tx, frameStmt{TradeCleanup, 1, "cancel trade"}, e.sql.of(tradeCleanupCancelTrade), now, schema.StatusCanceled, id); err != nil {
			return err
		}
		if err := execOne(ctx, tx, frameStmt{TradeCleanup, 1, "insert history"}, e.sql.of(tradeCleanupInsertHistory), id, now, schema.StatusCanceled); err != nil {
			return err
		}
	}
	res.Submitted = len(submitted)
	return nil
}

// Trade-Cleanup's statements, in the order its frames run them.
var (
	tradeCleanupRequests       = TradeCleanup.statement("TradeCleanupRequests", `SELECT tr_t_id FROM trade_request ORDER BY tr_t_id`)
	tradeCleanupInsertHistory  = TradeCleanup.statement("TradeCleanupInsertHistory", `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`)
	tradeCleanupCancelTrade    = TradeCleanup.statement("TradeCleanupCancelTrade", `UPDATE trade SET t_dts = $1, t_st_id = $2 WHERE t_id = $3`)
	tradeCleanupDeleteRequests = TradeCleanup.statement("TradeCleanupDeleteRequests", `DELETE FROM trade_request`)
	tradeCleanupSubmitted      = TradeCleanup.statement("TradeCleanupSubmitted", `SELECT t_id FROM trade WHERE t_id >= $1 AND t_st_id = $2 ORDER BY t_id`)
)
