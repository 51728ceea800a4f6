package txn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// MaxAttempts bounds the retries of a transaction that fails with a serialization
// failure or a deadlock (DBT-5 retries 10 times, docs/workload.md §10.2).
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
	// ids hands out trade ids where the server has no sequences (database.IDsOf);
	// nil where the Trade-Order reads them with the engine's NextValue SQL.
	ids database.IDAllocator
	// server runs each transaction as calls of its server routine (WithFrames);
	// calls holds each transaction's routine call by Kind, or callErr why there is none.
	server  bool
	calls   [NumKinds]string
	callErr error
}

var _ Executor = (*executor)(nil)

// NewExecutor returns the Executor of one worker: inputs from NewGen(sc, seed,
// worker), SQL from sql, time from the wall clock (UTC) unless WithClock says
// otherwise.
func NewExecutor(db database.DB, sql *Statements, sc schema.Scale, seed uint64, worker int, opts ...Option) Executor {
	e := &executor{db: db, sql: sql, sc: sc, gen: NewGen(sc, seed, worker), now: func() time.Time { return time.Now().UTC() },
		ids: database.IDsOf(db)}
	for _, o := range opts {
		o(e)
	}
	if e.server {
		e.renderCalls()
	}
	return e
}

// Run runs a customer or timer transaction with inputs from the worker's generator,
// through the transaction's catalogue row.
func (e *executor) Run(ctx context.Context, k Kind) (Outcome, error) {
	if k >= NumKinds {
		return Outcome{Kind: k}, fmt.Errorf("unknown transaction kind %d", k)
	}
	run := Catalogue[k].run
	if run == nil {
		return Outcome{Kind: k}, fmt.Errorf("%s takes the market emulator's inputs: call its own method, not Run", k)
	}
	return run(e, ctx)
}

// inTx runs body as one transaction at iso, again from the start on a retryable
// error, up to MaxAttempts. The body must start from scratch on each call: inputs are
// fixed before, outputs are rebuilt inside. An intended rollback (database.ErrRollback)
// is not an error: it sets RolledBack. Writes the body held back (execOne) are sent
// before the commit, and before an intended rollback too, so the server runs every
// statement the body issued.
func (e *executor) inTx(ctx context.Context, out *Outcome, iso database.Isolation, body func(tx database.Tx) error) error {
	return e.attempts(out, func() error {
		return e.db.InTx(ctx, iso, func(tx database.Tx) error {
			c := &countingTx{tx: tx, n: &out.Statements}
			err := body(c)
			if err == nil {
				return c.flushCommit(ctx)
			}
			if errors.Is(err, database.ErrRollback) {
				if ferr := c.flush(ctx); ferr != nil {
					return ferr
				}
			}
			return err
		})
	})
}

// attempts runs one attempt of a transaction with run, again from the start on a
// retryable error, up to MaxAttempts, and sorts the outcome: an intended rollback
// sets RolledBack, any other error is the transaction's. Both frame modes retry
// through it (inTx, callRoutine).
func (e *executor) attempts(out *Outcome, run func() error) error {
	var last error
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		out.Attempts++
		out.ServiceStart = time.Now()
		err := run()
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

// countingTx counts the statements a transaction sends (Outcome.Statements; BEGIN
// and COMMIT are not counted, a statement counts when it is issued). It also holds
// back the writes whose only result is their row count (execOne) until the
// transaction's next statement or its end, and sends them in that statement's round
// trip: the server runs the same statements in the same order, the client waits for
// fewer answers. A held-back write's error surfaces at that next statement.
type countingTx struct {
	tx database.Tx
	n  *int
	// pending are the held-back writes, in order; what names each for its error, and
	// done counts those whose row count has come back in the current round trip.
	pending []database.Queued
	what    []string
	done    int
	// checked counts the held-back writes whose check could fail after the server
	// accepted them (a row count other than one); see flushCommit.
	checked int
}

// hold queues a write to be sent with the next statement; checked says whether its
// row count could be wrong without the server failing it.
func (c *countingTx) hold(what string, q database.Queued, checked bool) {
	*c.n++
	if checked {
		c.checked++
	}
	affected := q.Affected
	q.Affected = func(n int64) error {
		c.done++
		return affected(n)
	}
	c.pending = append(c.pending, q)
	c.what = append(c.what, what)
}

// send runs the held-back writes followed by qs in one pipeline and empties the hold.
// An error of a held-back write is wrapped with its name, as execOne does.
func (c *countingTx) send(ctx context.Context, qs ...database.Queued) error {
	return c.sendWith(ctx, func(all []database.Queued) error { return database.Pipeline(ctx, c.tx, all) }, qs...)
}

// sendWith empties the hold and runs the held-back writes followed by qs through run,
// wrapping a held-back write's error with its name.
func (c *countingTx) sendWith(ctx context.Context, run func([]database.Queued) error, qs ...database.Queued) error {
	all := append(c.pending, qs...)
	what := c.what
	c.pending, c.what, c.done, c.checked = nil, nil, 0, 0
	err := run(all)
	if err != nil && c.done < len(what) && !IsCheck(err) {
		err = fmt.Errorf("%s: %w", what[c.done], err)
	}
	return err
}

// flushCommit ends a body that succeeded. When every held-back write is one whose
// check cannot fail once the server accepted it (insertOne) and the database can,
// they and the COMMIT go out in one round trip (database.Committer): a server error
// stops the pipeline before the COMMIT, so the transaction commits exactly when it
// would have one round trip later. Otherwise the writes are flushed and InTx commits.
func (c *countingTx) flushCommit(ctx context.Context) error {
	cm, ok := c.tx.(database.Committer)
	if !ok || len(c.pending) == 0 || c.checked > 0 {
		return c.flush(ctx)
	}
	return c.sendWith(ctx, func(all []database.Queued) error { return cm.PipelineCommit(ctx, all) })
}

// flush sends the held-back writes, if any.
func (c *countingTx) flush(ctx context.Context) error {
	if len(c.pending) == 0 {
		return nil
	}
	return c.send(ctx)
}

func (c *countingTx) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	*c.n++
	if len(c.pending) == 0 {
		return c.tx.Exec(ctx, sql, args...)
	}
	var n int64
	err := c.send(ctx, database.Queued{SQL: sql, Args: args, Affected: func(k int64) error { n = k; return nil }})
	return n, err
}

func (c *countingTx) Query(ctx context.Context, sql string, args ...any) (database.Rows, error) {
	*c.n++
	if err := c.flush(ctx); err != nil {
		return nil, err
	}
	return c.tx.Query(ctx, sql, args...)
}

func (c *countingTx) QueryRow(ctx context.Context, sql string, args ...any) database.Row {
	*c.n++
	if len(c.pending) == 0 {
		return c.tx.QueryRow(ctx, sql, args...)
	}
	return heldRow{c: c, ctx: ctx, sql: sql, args: args}
}

// Pipeline counts every queued statement and sends them, after any held-back writes,
// together where the dialect can (database.Pipeline).
func (c *countingTx) Pipeline(ctx context.Context, qs []database.Queued) error {
	*c.n += len(qs)
	if len(c.pending) == 0 {
		return database.Pipeline(ctx, c.tx, qs)
	}
	return c.send(ctx, qs...)
}

// heldRow is a QueryRow issued while writes are held back: scanning it sends them
// and the query in one round trip.
type heldRow struct {
	c    *countingTx
	ctx  context.Context
	sql  string
	args []any
}

func (r heldRow) Scan(dest ...any) error {
	var found bool
	if err := r.c.send(r.ctx, rowQ(&found, dest, r.sql, r.args...)); err != nil {
		return err
	}
	return rowErr(found)
}

// frameStmt names a statement of a frame for its errors: the transaction, the frame's
// number and what the statement does.
type frameStmt struct {
	kind  Kind
	frame int
	what  string
}

// execOne runs a statement that must change exactly one row. Inside inTx it is held
// back and sent with the transaction's next statement (countingTx); its error, or a
// row count other than one, then surfaces there.
func execOne(ctx context.Context, tx database.Tx, at frameStmt, sql string, args ...any) error {
	return writeOne(ctx, tx, true, at, sql, args...)
}

// insertOne is execOne for a one-row INSERT ... VALUES: the server either inserts
// its row or fails the statement, so its row count check cannot fail on its own and
// the COMMIT may follow it in the same round trip (countingTx.flushCommit).
func insertOne(ctx context.Context, tx database.Tx, at frameStmt, sql string, args ...any) error {
	return writeOne(ctx, tx, false, at, sql, args...)
}

func writeOne(ctx context.Context, tx database.Tx, checked bool, at frameStmt, sql string, args ...any) error {
	if c, ok := tx.(*countingTx); ok {
		c.hold(at.what, database.Queued{SQL: sql, Args: args, Affected: func(n int64) error {
			if n != 1 {
				return checkf(at.kind, at.frame, "%s changed %d rows, want 1", at.what, n)
			}
			return nil
		}}, checked)
		return nil
	}
	n, err := tx.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", at.what, err)
	}
	if n != 1 {
		return checkf(at.kind, at.frame, "%s changed %d rows, want 1", at.what, n)
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

// rowQ is a one-row query for a pipeline: it scans the first row into dest and sets
// *found, as QueryRow's Scan would (the caller turns !*found into its ErrNoRows case).
func rowQ(found *bool, dest []any, sql string, args ...any) database.Queued {
	return database.Queued{SQL: sql, Args: args, Scan: func(r database.Rows) error {
		if *found {
			return nil
		}
		*found = true
		return r.Scan(dest...)
	}}
}

// rowErr is the error of a pipelined row query that found no row, or nil.
func rowErr(found bool) error {
	if found {
		return nil
	}
	return database.ErrNoRows
}
