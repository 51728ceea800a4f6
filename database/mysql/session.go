package mysql

import (
	"context"
	"database/sql"
	"fmt"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// readCommittedValue is the session default every connection of the pool starts
// with (sessionDefaults).
const readCommittedValue = "'READ-COMMITTED'"

// hasVariable says whether the server has the system variable name.
func hasVariable(ctx context.Context, db *sql.DB, name string) (bool, error) {
	var v any
	err := db.QueryRowContext(ctx, "SELECT @@"+name).Scan(&v)
	if ErrorNumber(err) == erUnknownVariable {
		return false, nil
	}
	return err == nil, err
}

// sessionDefaults asks the server what its sessions can be told and reopens the
// pool with it, once:
//   - READ COMMITTED as every connection's default isolation (transaction_isolation
//     on MySQL 8 and MariaDB 11.1+, tx_isolation on older MariaDB), so that the
//     workload's read-committed transactions (all but Trade-Order, Trade-Update and
//     Market-Feed) begin with START TRANSACTION alone. With the level named on each
//     transaction the driver sends SET TRANSACTION ISOLATION LEVEL before it: one
//     round trip in 14.6 statements of a 16-user MariaDB run, which PostgreSQL's
//     BEGIN ISOLATION LEVEL does not pay (docs/mysql.md §5).
//   - innodb_snapshot_isolation ON where the server has it (MariaDB 10.6.18, 10.11.8
//     and later): repeatable read as PostgreSQL runs it, where a write to a row
//     another transaction changed after this one's snapshot is an error (1020), not
//     a silent overwrite of the newer row computed from the older one (a lost update:
//     Trade-Update's frames read a value and write it back changed). Without it the
//     server's notes say so (docs/mysql.md §3).
//
// The pool is opened anew, not changed, so that no connection made before (the one
// that asked the version) serves a transaction without these defaults.
func (m *DB) sessionDefaults(ctx context.Context, o database.Options) error {
	scrub := func(err error) error {
		return fmt.Errorf("MySQL at %s: %w", m.target, database.Scrubbed(err, m.cfg.Passwd))
	}
	isolation := "tx_isolation"
	if ok, err := hasVariable(ctx, m.DB, "transaction_isolation"); err != nil {
		return scrub(err)
	} else if ok {
		isolation = "transaction_isolation"
	}
	snapshot, err := hasVariable(ctx, m.DB, snapshotIsolation)
	if err != nil {
		return scrub(err)
	}
	cfg := m.cfg.Clone()
	cfg.Params[isolation] = readCommittedValue
	if snapshot {
		cfg.Params[snapshotIsolation] = "ON"
	}
	conn, err := driver.NewConnector(cfg)
	if err != nil {
		return err
	}
	db, err := ping(ctx, conn, o)
	if err != nil {
		return scrub(err)
	}
	m.DB.Close()
	m.DB, m.cfg, m.readCommitted, m.snapshotChecks = db, cfg, true, snapshot
	if snapshot {
		m.unchecked = uncheckedPrefix()
	}
	return nil
}

// uncheckedPrefix runs a statement of an insert-only transaction
// (database.InsertOnlyRepeatableRead: Trade-Order, client and server frames alike)
// without the snapshot checks. InnoDB checks an inserted row's foreign keys by
// locking each parent row, and with the checks on, that lock fails the insert (1020)
// when the parent changed in any column since the transaction's snapshot: every
// Trade-Result updates its broker's trade count and commission and, for cash trades,
// its account's balance, the parents of Trade-Order's trade_request and trade rows.
// PostgreSQL's check takes a key-share lock, which such an update does not conflict
// with. An insert overwrites no row, so there is no lost update for the checks to
// stop; without them the lock is taken on the newest parent row, as read committed
// takes it (docs/mysql.md §3). SET STATEMENT applies to its statement only (a CALL's
// procedure included) and costs no round trip, where SET SESSION would cost two.
func uncheckedPrefix() string { return "SET STATEMENT " + snapshotIsolation + " = OFF FOR " }
