package txn

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// MaxAttempts bounds the retries of a transaction that fails with a serialization
// failure or a deadlock (DBT-5 retries 10 times, tpce.md §8.1).
const MaxAttempts = 10

// Option adjusts an Executor.
type Option func(*executor)

// WithClock replaces the wall clock that stamps trades, history rows and
// Data-Maintenance's EXCHANGE descriptions (tests pin it).
func WithClock(now func() time.Time) Option { return func(e *executor) { e.now = now } }

// executor runs the transactions of one worker.
type executor struct {
	db  database.DB
	sql *Statements
	sc  schema.Scale
	gen *Gen
	now func() time.Time
}

var _ Executor = (*executor)(nil)

// NewExecutor returns the Executor of one worker: inputs from NewGen(sc, seed,
// worker), SQL from sql, time from the wall clock (UTC) unless WithClock says
// otherwise.
func NewExecutor(db database.DB, sql *Statements, sc schema.Scale, seed uint64, worker int, opts ...Option) Executor {
	e := &executor{db: db, sql: sql, sc: sc, gen: NewGen(sc, seed, worker), now: func() time.Time { return time.Now().UTC() }}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Run runs a customer or timer transaction with inputs from the worker's generator.
func (e *executor) Run(ctx context.Context, k Kind) (Outcome, error) {
	switch k {
	case BrokerVolume:
		return e.brokerVolume(ctx, e.gen.BrokerVolume())
	case CustomerPosition:
		o, _, err := e.customerPosition(ctx, e.gen.CustomerPosition())
		return o, err
	case MarketWatch:
		o, _, err := e.marketWatch(ctx, e.gen.MarketWatch())
		return o, err
	case SecurityDetail:
		o, _, err := e.securityDetail(ctx, e.gen.SecurityDetail())
		return o, err
	case TradeLookup:
		o, _, err := e.tradeLookup(ctx, e.gen.TradeLookup())
		return o, err
	case TradeOrder:
		return e.tradeOrder(ctx, e.gen.TradeOrder())
	case TradeStatus:
		o, _, err := e.tradeStatus(ctx, e.gen.TradeStatus())
		return o, err
	case TradeUpdate:
		o, _, err := e.tradeUpdate(ctx, e.gen.TradeUpdate())
		return o, err
	case DataMaintenance:
		return e.dataMaintenance(ctx, e.gen.DataMaintenance())
	case TradeCleanup:
		return e.tradeCleanup(ctx)
	case TradeResult, MarketFeed:
		return Outcome{Kind: k}, fmt.Errorf("%s takes the market emulator's inputs: call its own method, not Run", k)
	}
	return Outcome{Kind: k}, fmt.Errorf("unknown transaction kind %d", k)
}

// inTx runs body as one transaction at iso, again from the start on a retryable
// error, up to MaxAttempts. The body must start from scratch on each call: inputs are
// fixed before, outputs are rebuilt inside. An intended rollback (database.ErrRollback)
// is not an error: it sets RolledBack.
func (e *executor) inTx(ctx context.Context, out *Outcome, iso database.Isolation, body func(tx database.Tx) error) error {
	var last error
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		out.Attempts++
		out.ServiceStart = time.Now()
		err := e.db.InTx(ctx, iso, func(tx database.Tx) error {
			return body(countingTx{tx: tx, n: &out.Statements})
		})
		if err == nil {
			return nil
		}
		switch database.Classify(err) {
		case database.Retry:
			last = err
			continue
		case database.Rollback:
			out.RolledBack = true
			return nil
		}
		return fmt.Errorf("%s: %w", out.Kind, err)
	}
	return &GiveUpError{Kind: out.Kind, Attempts: MaxAttempts, Last: last}
}

// countingTx counts the statements a transaction sends (Outcome.Statements); BEGIN
// and COMMIT are not counted.
type countingTx struct {
	tx database.Tx
	n  *int
}

func (c countingTx) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	*c.n++
	return c.tx.Exec(ctx, sql, args...)
}

func (c countingTx) Query(ctx context.Context, sql string, args ...any) (database.Rows, error) {
	*c.n++
	return c.tx.Query(ctx, sql, args...)
}

func (c countingTx) QueryRow(ctx context.Context, sql string, args ...any) database.Row {
	*c.n++
	return c.tx.QueryRow(ctx, sql, args...)
}

// Pipeline counts every queued statement and sends them together where the dialect
// can (database.Pipeline).
func (c countingTx) Pipeline(ctx context.Context, qs []database.Queued) error {
	*c.n += len(qs)
	return database.Pipeline(ctx, c.tx, qs)
}

// execOne runs a statement that must change exactly one row.
func execOne(ctx context.Context, tx database.Tx, k Kind, frame int, what, sql string, args ...any) error {
	n, err := tx.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n != 1 {
		return checkf(k, frame, "%s changed %d rows, want 1", what, n)
	}
	return nil
}

// scanRows reads every row of a query through scan.
func scanRows(rows database.Rows, err error, scan func(database.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
