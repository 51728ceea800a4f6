package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// The trade-id generator on a server without sequences (MySQL): a one-row counter
// table named as the sequence, from which each pool takes blocks of ids with one
// autocommit UPDATE. The UPDATE runs outside the Trade-Order that uses the id, as
// NEXT VALUE FOR does: inside it, the counter row's lock would last to the commit and
// every Trade-Order would wait for the one before. A block of idBlock ids is what
// MariaDB's sequence caches (CACHE 1000), so 300 users take the row's lock about
// once per thousand trades; ids a pool took and did not use are skipped, as a
// sequence's cache is when its server restarts (docs/mysql.md §2).

// idBlock is how many ids one UPDATE of the counter takes.
const idBlock = 1000

// counterDDL is MySQL's DDL: the counter table for the trade-id sequence, and foreign
// keys added unchecked in the session's foreign_key_checks = 0 (MySQL has no
// statement-scoped form like MariaDB's SET STATEMENT; with the checks on InnoDB
// copies the table for every key), then checked by the loader as on MariaDB.
type counterDDL struct{ innoDDL }

var (
	_ database.DDL         = counterDDL{}
	_ database.FKValidator = counterDDL{}
)

// ForeignKeysNotValid marks each key's statement for Maintenance, which runs it on a
// session of its own with foreign_key_checks off (uncheckedKey).
func (d counterDDL) ForeignKeysNotValid(t schema.Table) []string {
	var out []string
	for _, stmt := range d.ForeignKeys(t) {
		out = append(out, uncheckedKey+stmt)
	}
	return out
}

// ValidateForeignKeys counts the orphans, as on MariaDB.
func (counterDDL) ValidateForeignKeys(t schema.Table) []string {
	return mysqlDDL{}.ValidateForeignKeys(t)
}

// uncheckedKey starts a foreign key's statement that Maintenance runs with the
// session's foreign_key_checks off.
const uncheckedKey = "/* foreign_key_checks off */ "

// CreateSequence creates and fills the counter in one statement: next_id is the
// next id to hand out. The one-row key keeps it valid under sql_require_primary_key.
func (counterDDL) CreateSequence(name string, start int64) string {
	return fmt.Sprintf("CREATE TABLE %s (id TINYINT NOT NULL PRIMARY KEY, next_id BIGINT NOT NULL) %s AS SELECT 1 AS id, %d AS next_id",
		name, tableOptions, start)
}

func (counterDDL) DropSequence(name string) string { return "DROP TABLE IF EXISTS " + name }

// takeBlockSQL advances the counter by a block: LAST_INSERT_ID(expr) makes the new
// value the statement's last insert id, which the server returns with the UPDATE's
// result, so taking a block is one round trip (no SELECT LAST_INSERT_ID() after it).
func takeBlockSQL(sequence string) string {
	return fmt.Sprintf("UPDATE %s SET next_id = LAST_INSERT_ID(next_id + %d) WHERE id = 1", sequence, idBlock)
}

// counterCatalogSQL lists what catalogSQL does, with the counter table standing for
// the sequence.
func counterCatalogSQL(sequence string) string {
	return catalogIndexesAndKeys + `
UNION ALL SELECT table_name, 3, 1 FROM information_schema.tables
  WHERE table_schema = DATABASE() AND table_name = '` + sequence + `'`
}

// idBlocks hands out a pool's ids from the blocks it took. It takes them on a
// connection of its own, not one of the pool's: the Trade-Order that asks holds a
// pooled connection in its transaction, and with every connection so held (a pool
// of one, or every user in a Trade-Order) a pooled UPDATE would wait for ever.
type idBlocks struct {
	db   *DB
	mu   sync.Mutex
	conn *sql.DB             // one connection, opened at the first block
	next map[string][2]int64 // by sequence: the next id and the end of its block
}

var _ database.IDAllocator = (*idBlocks)(nil)

// NextID returns sequence's next id, taking a block when the last one is used up.
// Concurrent callers wait for the one taking the block.
func (b *idBlocks) NextID(ctx context.Context, sequence string) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.next[sequence]
	if r[0] >= r[1] {
		if b.conn == nil {
			conn, err := driver.NewConnector(b.db.cfg.Clone())
			if err != nil {
				return 0, fmt.Errorf("take trade ids from %s: %s", sequence, database.ScrubSecret(err.Error(), b.db.cfg.Passwd))
			}
			b.conn = sql.OpenDB(conn)
			b.conn.SetMaxOpenConns(1)
		}
		res, err := b.conn.ExecContext(ctx, takeBlockSQL(sequence))
		if err != nil {
			return 0, fmt.Errorf("take trade ids from %s: %w", sequence, err)
		}
		end, err := res.LastInsertId()
		if n, _ := res.RowsAffected(); err != nil || n != 1 {
			return 0, fmt.Errorf("take trade ids from %s: the counter has no row (load again with --drop)", sequence)
		}
		r = [2]int64{end - idBlock, end}
	}
	b.next[sequence] = [2]int64{r[0] + 1, r[1]}
	return r[0], nil
}

// close closes the connection the blocks were taken on.
func (b *idBlocks) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.conn != nil {
		b.conn.Close()
	}
}
