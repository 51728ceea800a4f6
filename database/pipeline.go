package database

import "context"

// Queued is one statement of a pipeline. A query's rows go to Scan, called once per
// row; a statement with Affected set runs as an Exec and Affected gets the number of
// rows it changed (its error, such as a failed output check, ends the pipeline).
type Queued struct {
	SQL      string
	Args     []any
	Scan     func(Rows) error  // nil: rows are discarded
	Affected func(int64) error // non-nil: run as Exec, not as a query
}

// Pipeliner is a Tx that can send several statements in one round trip. The round
// trip, not the statement, is what costs a client CPU: the frames that read the same
// child rows of twenty trades send them together where the database allows.
type Pipeliner interface {
	Pipeline(ctx context.Context, qs []Queued) error
}

// Pipeline runs qs in order on tx, in one round trip when tx is a Pipeliner and one
// statement at a time otherwise; the results and errors are the same either way.
func Pipeline(ctx context.Context, tx Tx, qs []Queued) error {
	if p, ok := tx.(Pipeliner); ok {
		return p.Pipeline(ctx, qs)
	}
	for _, q := range qs {
		if q.Affected != nil {
			n, err := tx.Exec(ctx, q.SQL, q.Args...)
			if err != nil {
				return err
			}
			if err := q.Affected(n); err != nil {
				return err
			}
			continue
		}
		rows, err := tx.Query(ctx, q.SQL, q.Args...)
		if err := ScanQueued(rows, err, q.Scan); err != nil {
			return err
		}
	}
	return nil
}

// ScanQueued reads every row of a queued query through scan (nil: discards them).
func ScanQueued(rows Rows, err error, scan func(Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if scan != nil {
			if err := scan(rows); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// Committer is a Tx that can send its last statements and its COMMIT in one round
// trip. PipelineCommit runs qs as Pipeline does, then commits; the COMMIT runs only
// when every statement before it succeeded (the server skips the rest of a pipeline
// after an error), and a client-side check in a Scan or Affected comes too late to
// stop it. So it suits only statements whose checks cannot fail once the server
// accepted them, such as one-row INSERT ... VALUES. On success the transaction is
// committed: InTx must not commit it again.
type Committer interface {
	PipelineCommit(ctx context.Context, qs []Queued) error
}
