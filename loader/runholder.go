package loader

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// RunHolderTable records who holds a database's run locks: one row per shard of the
// runs driving it, written by the run once it holds its lock and deleted when it
// ends. The lock says whether a run is there (a client that dies releases it with
// its connection); the row says which one, for the commands it refuses. A row whose
// lock is free is a killed run's, and the next run replaces it. The first run creates
// the table; the schema's drop removes it.
const RunHolderTable = "bb_run"

func runHolderTable() schema.Table {
	return schema.Table{Name: RunHolderTable, PrimaryKey: []string{"shard"}, Columns: []schema.Column{
		{Name: "shard", Type: schema.Int}, {Name: "shards", Type: schema.Int},
		{Name: "host", Type: schema.VC(255)}, {Name: "pid", Type: schema.Ident},
		{Name: "started_at", Type: schema.TS}}}
}

// RunLockName is the lock a run holds on its database for its length
// (database.Locker). The shards of one sharded run drive the database together by
// design, so each shard index has a lock of its own: two runs meet on shard 0 (every
// unsharded run is shard 0 of 1), the shards of one run never do.
func RunLockName(shard int) string { return fmt.Sprintf("brokerbench run, shard %d", shard) }

// RunHolder is one row of RunHolderTable: the process that holds a shard's lock.
type RunHolder struct {
	Shard, Shards int
	Host          string
	PID           int64
	Started       time.Time
}

func (h RunHolder) String() string {
	s := fmt.Sprintf("host %s, pid %d, started %s", h.Host, h.PID, h.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	if h.Shards > 1 {
		s += fmt.Sprintf(", shard %d of %d", h.Shard, h.Shards)
	}
	return s
}

// RunHeldError says a run holds the database; Holder is nil when the lock's holder
// recorded no row (a load or schema drop holds it while it changes the schema).
type RunHeldError struct {
	Target string
	Holder *RunHolder
}

func (e *RunHeldError) Error() string {
	if e.Holder == nil {
		return fmt.Sprintf("another brokerbench command holds the run lock of %s (a run, or a load or schema drop changing its schema): wait for it to end", e.Target)
	}
	return fmt.Sprintf("a brokerbench run holds %s (%s): stop it, or wait for it to end", e.Target, *e.Holder)
}

// releaseWait bounds the release's delete of the holder row, as the engines bound the
// unlock.
const releaseWait = 2 * time.Second

// HoldRun takes the run lock of shard (of shards) and records this process as its
// holder. It refuses with a *RunHeldError naming the holder when another run holds
// that lock, and, for an unsharded run, when any run's shard holds its own: shards of
// one run share the database, anything else would cancel the other's trades. A
// sharded run's shard also refuses while an unsharded run holds shard 0. db needs two
// connections. release deletes the row and frees the lock.
func HoldRun(ctx context.Context, db database.DB, shard, shards int) (release func(), err error) {
	lk, ok := db.(database.Locker)
	if !ok {
		return func() {}, nil
	}
	unlock, err := tryRunLock(ctx, db, lk, shard)
	if err != nil {
		return nil, err
	}
	// The row is written before the others are read: a shard of this run that reads
	// shard 0's row a moment later finds this run's, not a killed run's left behind.
	done := func() {
		// A release must not hang on a server that stopped answering (the run ends
		// then, and Ctrl-C must end it within seconds): the row waits at most
		// releaseWait, and a row left behind names no one once its lock is free.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
		defer cancel()
		_, _ = db.Exec(rctx, fmt.Sprintf("DELETE FROM %s WHERE shard = %d", RunHolderTable, shard))
		unlock()
	}
	if err := recordRunHolder(ctx, db, shard, shards); err != nil {
		unlock()
		return nil, err
	}
	defer func() {
		if err != nil {
			done()
		}
	}()
	holders, err := readRunHolders(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, h := range holders {
		if h.Shard == shard || (shards > 1 && !(h.Shard == 0 && h.Shards == 1)) {
			continue
		}
		if err := checkRunLock(ctx, db, lk, h.Shard); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// ExcludeRuns holds shard 0's run lock, so no unsharded run starts, after checking
// that no run's shard holds its own; it refuses with a *RunHeldError naming the
// holder. A load that changes the schema and schema drop hold it while they do.
func ExcludeRuns(ctx context.Context, db database.DB) (release func(), err error) {
	lk, ok := db.(database.Locker)
	if !ok {
		return func() {}, nil
	}
	unlock, err := tryRunLock(ctx, db, lk, 0)
	if err != nil {
		return nil, err
	}
	holders, err := readRunHolders(ctx, db)
	if err != nil {
		unlock()
		return nil, err
	}
	for _, h := range holders {
		if h.Shard == 0 {
			continue
		}
		if err := checkRunLock(ctx, db, lk, h.Shard); err != nil {
			unlock()
			return nil, err
		}
	}
	return unlock, nil
}

// tryRunLock takes shard's run lock, or returns the *RunHeldError of its holder.
func tryRunLock(ctx context.Context, db database.DB, lk database.Locker, shard int) (func(), error) {
	unlock, held, err := lk.TryLock(ctx, RunLockName(shard))
	if err != nil {
		return nil, fmt.Errorf("take the run lock of %s: %w", db.Target(), err)
	}
	if held {
		return unlock, nil
	}
	return nil, heldBy(ctx, db, shard)
}

// checkRunLock returns the *RunHeldError of shard's holder when its lock is held.
func checkRunLock(ctx context.Context, db database.DB, lk database.Locker, shard int) error {
	unlock, err := tryRunLock(ctx, db, lk, shard)
	if err != nil {
		return err
	}
	unlock()
	return nil
}

func heldBy(ctx context.Context, db database.DB, shard int) error {
	e := &RunHeldError{Target: db.Target()}
	holders, err := readRunHolders(ctx, db)
	if err != nil {
		return err
	}
	for _, h := range holders {
		if h.Shard == shard {
			e.Holder = &h
		}
	}
	return e
}

// readRunHolders reads RunHolderTable; a database no run has held has none.
func readRunHolders(ctx context.Context, db database.DB) ([]RunHolder, error) {
	if ok, err := hasRunHolderTable(ctx, db); err != nil || !ok {
		return nil, err
	}
	rows, err := db.Query(ctx, "SELECT shard, shards, host, pid, started_at FROM "+RunHolderTable+" ORDER BY shard")
	if err != nil {
		return nil, fmt.Errorf("read the run holders of %s: %w", db.Target(), err)
	}
	defer rows.Close()
	var out []RunHolder
	for rows.Next() {
		var h RunHolder
		var sh, n int32
		if err := rows.Scan(&sh, &n, &h.Host, &h.PID, &h.Started); err != nil {
			return nil, err
		}
		h.Shard, h.Shards = int(sh), int(n)
		out = append(out, h)
	}
	return out, rows.Err()
}

func hasRunHolderTable(ctx context.Context, db database.DB) (bool, error) {
	eng, err := database.Of(db)
	if err != nil {
		return false, err
	}
	var n int64
	if err := db.QueryRow(ctx, eng.TablesSQL("COUNT(*)", "table_name = '"+RunHolderTable+"'")).Scan(&n); err != nil {
		return false, fmt.Errorf("look for the run holders of %s: %w", db.Target(), err)
	}
	return n > 0, nil
}

// recordRunHolder writes this process as shard's holder, creating the table on the
// first run; a shard of the same run that created it meanwhile is no error.
func recordRunHolder(ctx context.Context, db database.DB, shard, shards int) error {
	eng, err := database.Of(db)
	if err != nil {
		return err
	}
	ok, err := hasRunHolderTable(ctx, db)
	if err != nil {
		return err
	}
	if !ok {
		ddl, err := database.DDLOf(db)
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, ddl.CreateTable(runHolderTable())); err != nil {
			if ok, _ := hasRunHolderTable(ctx, db); !ok {
				return fmt.Errorf("create %s: %w", RunHolderTable, err)
			}
		}
	}
	host, _ := os.Hostname()
	if _, err := db.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE shard = %d", RunHolderTable, shard)); err != nil {
		return fmt.Errorf("record the run's holder: %w", err)
	}
	_, err = db.Exec(ctx, eng.SQL("INSERT INTO "+RunHolderTable+" (shard, shards, host, pid, started_at) VALUES ($1, $2, $3, $4, $5)"),
		int32(shard), int32(shards), host, int64(os.Getpid()), time.Now().UTC().Truncate(time.Second))
	if err != nil {
		return fmt.Errorf("record the run's holder: %w", err)
	}
	return nil
}
