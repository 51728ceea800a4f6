package mysql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/golden"
	"github.com/brokerbench/brokerbench/schema"
)

// TestSQLPlaceholders: $n becomes ? in order, quoted text is left alone, and a
// statement that repeats or reorders parameters is refused as the bug it is.
func TestSQLPlaceholders(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1": "SELECT 1",
		"SELECT a FROM t WHERE b = $1 AND c = $2":                                    "SELECT a FROM t WHERE b = ? AND c = ?",
		"SELECT '$1', `$1`, \"$1\" FROM t WHERE $1":                                  "SELECT '$1', `$1`, \"$1\" FROM t WHERE ?",
		"UPDATE t SET a = $1 WHERE id IN ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11)": "UPDATE t SET a = ? WHERE id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		"SELECT $ FROM t": "SELECT $ FROM t",
	} {
		if got := SQL(in); got != want {
			t.Errorf("SQL(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"SELECT $2, $1", "SELECT $1 WHERE $1"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SQL(%q) did not refuse parameters out of order", bad)
				}
			}()
			SQL(bad)
		}()
	}
}

// TestDSNForms reads both DSN forms and the benchmark's connect_timeout, and names
// the server without the password.
func TestDSNForms(t *testing.T) {
	for _, c := range []struct {
		dsn, net, addr, db, user, pw string
		timeout                      time.Duration
	}{
		{"mysql://bb:s%40cr%2Fet@db.example:3307/tpce?connect_timeout=7", "tcp", "db.example:3307", "tpce", "bb", "s@cr/et", 7 * time.Second},
		{"mariadb://bb:pw@10.0.0.5/x", "tcp", "10.0.0.5:3306", "x", "bb", "pw", 0},
		{"mysql://bb:p:w@tcp(h:3306)/d?tls=false&connect_timeout=3", "tcp", "h:3306", "d", "bb", "p:w", 3 * time.Second},
		{"mysql://root:pw@unix(/run/mysqld/mysqld.sock)/d", "unix", "/run/mysqld/mysqld.sock", "d", "root", "pw", 0},
	} {
		cfg, timeout, err := parseDSN(c.dsn)
		if err != nil {
			t.Errorf("%s: %v", c.dsn, err)
			continue
		}
		if cfg.Net != c.net || cfg.Addr != c.addr || cfg.DBName != c.db || cfg.User != c.user || cfg.Passwd != c.pw || timeout != c.timeout {
			t.Errorf("%s: got %s %s db %s user %s pw %s timeout %s", c.dsn, cfg.Net, cfg.Addr, cfg.DBName, cfg.User, cfg.Passwd, timeout)
		}
		if s := shown(c.dsn); strings.Contains(s, c.pw) || !strings.Contains(s, c.addr) {
			t.Errorf("shown(%s) = %q", c.dsn, s)
		}
	}
	if got := shown("mysql://bb:pw@h:3306/d"); got != "h:3306, database d, user bb" {
		t.Errorf("shown = %q", got)
	}
	for _, bad := range []string{"mysql://bb:topsecret@h:3306/d?connect_timeout=x", "mysql://bb:topsecret@tcp(h:3306/d", "mysql://bb:topsecret@h:3306/a/b"} {
		_, err := Open(context.Background(), bad, database.Options{})
		var de *database.DSNError
		if !errors.As(err, &de) || strings.Contains(err.Error(), "topsecret") {
			t.Errorf("Open(%q) = %v, want a DSN error without the password", bad, err)
		}
	}
}

// TestClassifyByNumber: deadlocks and lock wait timeouts retry, a duplicate key is
// fatal, a lost connection is a connection fault, whatever the message says.
func TestClassifyByNumber(t *testing.T) {
	for n, want := range map[uint16]database.Class{
		1213: database.Retry, 1205: database.Retry, 1020: database.Retry,
		1062: database.Fatal, 1064: database.Fatal,
		2013: database.Connection, 2006: database.Connection, 1927: database.Connection,
	} {
		err := fmt.Errorf("frame 2: %w", &driver.MySQLError{Number: n, Message: "deadlock lost connection duplicate"})
		if got := database.Classify(err); got != want {
			t.Errorf("error %d: %s, want %s", n, got, want)
		}
	}
	if got := database.Classify(fmt.Errorf("x: %w", driver.ErrInvalidConn)); got != database.Connection {
		t.Errorf("invalid connection: %s", got)
	}
}

// TestRowFormat pins LOAD DATA's text for every type, escapes included.
func TestRowFormat(t *testing.T) {
	e := newTSVEncoder(1024)
	e.Int16(-3)
	e.Int32(7)
	e.Int64(1 << 40)
	e.Bool(true)
	e.Bool(false)
	e.Decimal(-5, 2)
	e.Decimal(123456, 2)
	e.Decimal(7, 0)
	e.Text("a\tb\nc\\d\re\x00")
	e.Date(0)
	e.Timestamp(86400*1_000_000 + 1)
	e.Null()
	e.EndRow()
	e.Text("")
	e.EndRow()
	rows, data := e.Take()
	want := "-3\t7\t1099511627776\t1\t0\t-0.05\t1234.56\t7\ta\\tb\\nc\\\\d\\re\\0\t1970-01-01\t1970-01-02 00:00:00.000001\t\\N\n\n"
	if rows != 2 || string(data) != want {
		t.Errorf("rows %d, data %q, want %q", rows, data, want)
	}
	// The boxed path writes the same text for the loader's boxed values.
	r := &boxedReader{src: &rowsOf{rows: [][]any{{int16(-3), 12.5, time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC), nil, "x"}}}, cols: 5, enc: newTSVEncoder(16)}
	b, err := io.ReadAll(r)
	if err != nil || string(b) != "-3\t12.5\t1970-01-02\t\\N\tx\n" {
		t.Errorf("boxed: %q, %v", b, err)
	}
}

type rowsOf struct {
	rows [][]any
	i    int
}

func (r *rowsOf) Next() bool             { r.i++; return r.i <= len(r.rows) }
func (r *rowsOf) Values() ([]any, error) { return r.rows[r.i-1], nil }
func (r *rowsOf) Err() error             { return nil }

// TestDDLGolden pins the InnoDB DDL of every table, index, key and the sequence.
func TestDDLGolden(t *testing.T) {
	d := mysqlDDL{}
	var b strings.Builder
	b.WriteString("-- brokerbench MySQL/MariaDB DDL (golden; regenerate with go test ./database/mysql -run DDLGolden -update)\n\n")
	tables := append(schema.Tables(), schema.MetaTables()...)
	for _, tb := range tables {
		b.WriteString(d.CreateTable(tb) + ";\n\n")
	}
	for _, tb := range tables {
		for _, s := range append(append(d.Indexes(tb), d.ForeignKeys(tb)...), append(d.ForeignKeysNotValid(tb), d.ValidateForeignKeys(tb)...)...) {
			b.WriteString(s + ";\n")
		}
	}
	b.WriteString("\n" + d.CreateSequence(schema.TradeIDSequence, 200000000000001) + ";\n")
	b.WriteString(d.DropSequence(schema.TradeIDSequence) + ";\n")
	for _, tb := range tables {
		b.WriteString(d.DropTable(tb) + ";\n")
	}
	golden.Check(t, filepath.Join("testdata", "mysql.ddl.golden"), "MySQL DDL", b.String())
}

func TestShortVersion(t *testing.T) {
	for in, want := range map[string]int{"10.11.19-MariaDB-0+deb12u1": 101119, "8.0.36": 80036, "11.4.2-MariaDB": 110402, "junk": 0} {
		if _, n := shortVersion(in); n != want {
			t.Errorf("shortVersion(%q) = %d, want %d", in, n, want)
		}
	}
}

// TestCounterGolden pins what MySQL's sequence-free path sends: the counter table in
// place of the sequence, the UPDATE that takes a block of ids, the catalog that lists
// the counter as the sequence, and the foreign keys marked to be added unchecked.
func TestCounterGolden(t *testing.T) {
	d := counterDDL{}
	var b strings.Builder
	b.WriteString("-- brokerbench MySQL (no sequences) trade-id counter and keys (golden; regenerate with go test ./database/mysql -run CounterGolden -update)\n\n")
	b.WriteString(d.CreateSequence(schema.TradeIDSequence, 200000000000001) + ";\n")
	b.WriteString(takeBlockSQL(schema.TradeIDSequence) + ";\n")
	b.WriteString(d.DropSequence(schema.TradeIDSequence) + ";\n\n")
	b.WriteString(counterCatalogSQL(schema.TradeIDSequence) + ";\n\n")
	for _, tb := range schema.Tables() {
		for _, s := range d.ForeignKeysNotValid(tb) {
			if !strings.HasPrefix(s, uncheckedKey) {
				t.Errorf("%q is not marked to run with foreign_key_checks off", s)
			}
			b.WriteString(s + ";\n")
		}
	}
	golden.Check(t, filepath.Join("testdata", "mysql-counter.golden"), "MySQL counter", b.String())
}

// TestTablesScope: information_schema.tables lists every database of the server, so
// the loader's look at it keeps to the session's (Engine.TablesScope).
func TestTablesScope(t *testing.T) {
	if got := Engine.TablesSQL("table_name", ""); got != "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()" {
		t.Errorf("TablesSQL: %q", got)
	}
}
