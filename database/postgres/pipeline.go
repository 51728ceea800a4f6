package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/brokerbench/brokerbench/database"
)

var (
	_ database.Pipeliner = (*pgTx)(nil)
	_ database.Pipeliner = pgConnTx{}
	_ database.Committer = (*pgTx)(nil)
)

// queueAll queues qs on b, amounts bound as numerics.
func queueAll(b *pgx.Batch, qs []database.Queued) {
	for _, q := range qs {
		b.Queue(q.SQL, withCents(q.Args)...)
	}
}

// readAll reads the results of qs from br in the order they were queued, then closes
// br: all statements went out together, their results come back in order.
func readAll(br pgx.BatchResults, qs []database.Queued) error {
	if err := readEach(br, qs); err != nil {
		return err
	}
	return br.Close()
}

// readEach reads the results of qs from br in the order they were queued; on an
// error it closes br.
func readEach(br pgx.BatchResults, qs []database.Queued) error {
	rs := &pgRows{} // one at a time: the queries share its scratch
	for _, q := range qs {
		var err error
		if q.Affected != nil {
			var tag pgconn.CommandTag
			tag, err = br.Exec()
			if err == nil {
				err = q.Affected(tag.RowsAffected())
			}
		} else {
			var qerr error
			rs.r, qerr = br.Query()
			err = database.ScanQueued(rs, qerr, q.Scan)
		}
		if err != nil {
			_ = br.Close()
			return err
		}
	}
	return nil
}

func (t *pgTx) Pipeline(ctx context.Context, qs []database.Queued) error {
	br, err := t.send(ctx, qs, false)
	if err != nil {
		return err
	}
	return readAll(br, qs)
}

// send queues qs, and the COMMIT after them when commit, and sends them in one round
// trip. When they are the transaction's first statements the BEGIN goes in front and
// its answer is read here.
func (t *pgTx) send(ctx context.Context, qs []database.Queued, commit bool) (pgx.BatchResults, error) {
	b := &pgx.Batch{}
	begin := t.tx == nil
	if begin {
		b.BeginTx(t.opts)
	}
	queueAll(b, qs)
	if commit {
		b.Queue("COMMIT")
	}
	if !begin {
		return t.tx.SendBatch(ctx, b), nil
	}
	br := t.c.SendBatch(ctx, b)
	t.tx = br.Tx()
	if _, err := br.Exec(); err != nil {
		_ = br.Close()
		return nil, err
	}
	return br, nil
}

// PipelineCommit sends qs and the COMMIT in one round trip (database.Committer),
// with the BEGIN too when qs are the transaction's first statements.
func (t *pgTx) PipelineCommit(ctx context.Context, qs []database.Queued) error {
	br, err := t.send(ctx, qs, true)
	if err != nil {
		return err
	}
	if err := readEach(br, qs); err != nil {
		return err
	}
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if tag.String() == "ROLLBACK" {
		// The server ended a failed transaction instead (pgx's Commit says the same).
		return pgx.ErrTxCommitRollback
	}
	t.committed = true
	return nil
}

func (t pgConnTx) Pipeline(ctx context.Context, qs []database.Queued) error {
	b := &pgx.Batch{}
	queueAll(b, qs)
	return readAll(t.c.SendBatch(ctx, b), qs)
}
