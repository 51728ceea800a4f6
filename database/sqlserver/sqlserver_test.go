package sqlserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-sql/civil"
	mssql "github.com/microsoft/go-mssqldb"
	"github.com/microsoft/go-mssqldb/msdsn"

	"github.com/brokerbench/brokerbench/database"
)

func TestSplitSQLServerDSN(t *testing.T) {
	clean, rc, err := splitSQLServerDSN("sqlserver://sa:s3cret@db.example:1433?database=bb&encrypt=true&TrustServerCertificate=true&brokerbench_read_committed=snapshot", "brokerbench")
	if err != nil {
		t.Fatal(err)
	}
	if rc != RCSnapshot {
		t.Errorf("mode = %q, want snapshot", rc)
	}
	if strings.Contains(strings.ToLower(clean), "brokerbench_read_committed") {
		t.Errorf("own parameter reached the driver: %s", clean)
	}
	cfg, err := msdsn.Parse(clean)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AppName != "brokerbench" || cfg.Database != "bb" || cfg.User != "sa" || cfg.Password != "s3cret" {
		t.Errorf("parsed %q %q %q: app name, database or credentials lost", cfg.AppName, cfg.Database, cfg.User)
	}
	if cfg.Encryption != msdsn.EncryptionRequired || !cfg.TrustServerCertificate {
		t.Errorf("encrypt/TrustServerCertificate not honoured: %v %v", cfg.Encryption, cfg.TrustServerCertificate)
	}

	// A user's own app name wins.
	clean, _, err = splitSQLServerDSN("sqlserver://u:p@h?app+name=mine", "brokerbench")
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := msdsn.Parse(clean); cfg.AppName != "mine" {
		t.Errorf("app name = %q, want mine", cfg.AppName)
	}

	if _, _, err := splitSQLServerDSN("sqlserver://u:hunter22@h?brokerbench_read_committed=sometimes", ""); err == nil ||
		strings.Contains(err.Error(), "hunter22") || !strings.Contains(err.Error(), "rcsi, snapshot or locking") {
		t.Errorf("bad mode: err = %v", err)
	}
}

func TestMSSQLTarget(t *testing.T) {
	for dsn, want := range map[string]string{
		"sqlserver://sa:pw@db1:1444?database=bb":   "db1:1444, database bb, user sa",
		"sqlserver://sa:pw@db1?database=bb":        "db1:1433, database bb, user sa",
		"sqlserver://sa:pw@db1/SQLEXPRESS":         `db1\SQLEXPRESS, database (login default), user sa`,
		"sqlserver://sa:pw@[::1]:1433?database=bb": "[::1]:1433, database bb, user sa",
	} {
		cfg, err := msdsn.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		if got := mssqlTarget(cfg); got != want {
			t.Errorf("target(%s) = %q, want %q", dsn, got, want)
		}
	}
}

// TestOpenSQLServerErrorsHideThePassword covers the failures that happen before and
// at connect time: nothing listens on port 1 of localhost.
func TestOpenSQLServerErrorsHideThePassword(t *testing.T) {
	ctx := context.Background()
	for _, dsn := range []string{
		"sqlserver://sa:Very$ecret99@127.0.0.1:1?database=bb&dial+timeout=1",
		"sqlserver://sa:Very$ecret99@127.0.0.1:99999?database=bb",
		"sqlserver://sa:Very$ecret99@127.0.0.1:1?encrypt=maybe",
		"sqlserver://sa:Very$ecret99@127.0.0.1:1?brokerbench_read_committed=x",
	} {
		db, err := Open(ctx, dsn, database.Options{Timeout: 2 * time.Second})
		if err == nil {
			db.Close()
			t.Fatalf("Open(%s) succeeded", database.Redact(dsn))
		}
		if strings.Contains(err.Error(), "Very$ecret99") || strings.Contains(err.Error(), "Very%24ecret99") {
			t.Errorf("password in error: %v", err)
		}
		if !strings.Contains(err.Error(), "SQL Server") {
			t.Errorf("error does not say which server kind failed: %v", err)
		}
	}
}

func msErr(num int32, class uint8) mssql.Error {
	return mssql.Error{Number: num, Class: class, Message: "text never used for classification"}
}

func TestClassifySQLServer(t *testing.T) {
	cases := []struct {
		err  error
		want database.Class
	}{
		{msErr(1205, 13), database.Retry},
		{fmt.Errorf("trade-result frame 2: %w", msErr(1222, 16)), database.Retry},
		{msErr(3960, 16), database.Retry},
		{msErr(3961, 16), database.Retry},
		{msErr(2627, 14), database.Fatal}, // duplicate key: a bug
		{msErr(8134, 16), database.Fatal}, // divide by zero
		{msErr(10054, 20), database.Connection},
		{msErr(4060, 20), database.Connection}, // severity 20+: connection gone
		{msErr(6005, 14), database.Connection},
		// The decisive error may not be the last in the chain.
		{mssql.Error{Number: 3621, Class: 16, All: []mssql.Error{msErr(1205, 13), msErr(3621, 16)}}, database.Retry},
		{mssql.StreamError{InnerError: errors.New("bad token")}, database.Connection},
		{database.ErrRollback, database.Rollback},
		{context.Canceled, database.Canceled},
		// A procedure's intended rollback, and its failed checks (the client mode's
		// check errors, not the database's).
		{msErr(50001, 16), database.Rollback},
		{msErr(50013, 16), database.Fatal},
	}
	for _, c := range cases {
		if got := database.Classify(c.err); got != c.want {
			t.Errorf("Classify(%v) = %s, want %s", c.err, got, c.want)
		}
	}
	if _, ok := classify(errors.New("plain")); ok {
		t.Error("a non-go-mssqldb error was claimed")
	}
	if n := ErrorNumber(fmt.Errorf("x: %w", msErr(1205, 13))); n != 1205 {
		t.Errorf("ErrorNumber = %d", n)
	}
}

type symbol string

type decimalText string

func (d decimalText) Value() (driverValue any, err error) { return string(d), nil }

func TestMSSQLArgs(t *testing.T) {
	ts := time.Date(2005, 1, 3, 9, 0, 0, 123e6, time.UTC)
	s := "x"
	var nilPtr *string
	var noIDs []int64
	got := mssqlArgs([]any{"ABC", ts, int16(3), int64(7), 2.5, true, nil, symbol("IBM"), &s, nilPtr, decimalText("25.37"),
		[]int64{5, 3}, []string{"A \"B\"", "C"}, noIDs, []byte("raw")})
	want := []any{mssql.VarCharMax("ABC"), civil.DateTimeOf(ts), int16(3), int64(7), 2.5, true, nil, mssql.VarCharMax("IBM"), mssql.VarCharMax("x"), nil, mssql.VarCharMax("25.37"),
		mssql.VarCharMax("[5,3]"), mssql.VarCharMax(`["A \"B\"","C"]`), mssql.VarCharMax("[]")}
	if b, ok := got[len(want)].([]byte); !ok || string(b) != "raw" {
		t.Errorf("bytes: %#v, want them as they are", got[len(want)])
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("arg %d: %#v, want %#v", i, got[i], want[i])
		}
	}
	if mssqlArgs(nil) != nil {
		t.Error("no args must stay nil")
	}
}

func TestBulkValue(t *testing.T) {
	ts := time.Date(2005, 1, 3, 9, 0, 0, 0, time.UTC)
	cases := []struct{ in, want any }{
		{int16(4), int64(4)},
		{int32(4), int32(4)},
		{25.37, "25.37"},
		{0.1, "0.1"},
		{-1234567890.12, "-1234567890.12"},
		{1e-5, "0.00001"},
		{ts, ts},
		{nil, nil},
		{true, true},
		{"text", "text"},
		{symbol("IBM"), "IBM"},
	}
	for _, c := range cases {
		if got := bulkValue(c.in); got != c.want {
			t.Errorf("bulkValue(%#v) = %#v, want %#v", c.in, got, c.want)
		}
	}
}

// TestRoutineCheckSQLServer: a procedure's failed check is recognised by its number
// (50010 + the frame), in any position of the error chain, with its message; no
// other number is.
func TestRoutineCheckSQLServer(t *testing.T) {
	chk := mssql.Error{Number: 50013, Class: 16, Message: "commission rate: no row"}
	for _, err := range []error{chk, fmt.Errorf("call: %w", mssql.Error{Number: 3621, Class: 16, All: []mssql.Error{msErr(3621, 16), chk}})} {
		if f, what, ok := routineCheck(err); !ok || f != 3 || what != "commission rate: no row" {
			t.Errorf("routineCheck(%v) = %d, %q, %v; want frame 3", err, f, what, ok)
		}
	}
	for _, err := range []error{msErr(50001, 16), msErr(50010, 16), msErr(50020, 16), msErr(1205, 13), errors.New("plain")} {
		if _, _, ok := routineCheck(err); ok {
			t.Errorf("routineCheck(%v) claimed a check", err)
		}
	}
	if got := execOf("bb_x", 3); got != "EXEC bb_x $1, $2, $3" {
		t.Errorf("execOf = %q", got)
	}
}

func TestSQLServerVersionNum(t *testing.T) {
	for v, want := range map[string]int{"16.0.4135.4": 1604135, "15.0.4375.4": 1504375, "junk": 0} {
		if got := sqlserverVersionNum(v); got != want {
			t.Errorf("%s -> %d, want %d", v, got, want)
		}
	}
	if got := serverDir(`C:\Program Files\MSSQL\DATA\bb.mdf`); got != `C:\Program Files\MSSQL\DATA` {
		t.Errorf("windows dir %q", got)
	}
	if got := serverDir("/var/opt/mssql/data/bb.mdf"); got != "/var/opt/mssql/data" {
		t.Errorf("linux dir %q", got)
	}
}

func TestSQLServerIsolation(t *testing.T) {
	m := &MSSQL{}
	if m.sqlIso(database.RepeatableRead).String() != "Repeatable Read" || m.sqlIso(database.Serializable).String() != "Serializable" || m.sqlIso(database.ReadCommitted).String() != "Read Committed" {
		t.Error("lock-based levels not mapped")
	}
	if m.sqlIso(database.InsertOnlyRepeatableRead).String() != "Repeatable Read" {
		t.Error("insert-only repeatable read is repeatable read")
	}
	m.rc = RCSnapshot
	if m.sqlIso(database.ReadOnlyCommitted).String() != "Snapshot" || m.sqlIso(database.ReadCommitted).String() != "Read Committed" ||
		m.sqlIso(database.Serializable).String() != "Serializable" {
		t.Error("snapshot mode must change read-only read committed only: writers keep read committed")
	}
	if m.readCommittedMode() != "snapshot" {
		t.Error(m.readCommittedMode())
	}
	m = &MSSQL{rcsi: true}
	if m.readCommittedMode() != "rcsi" {
		t.Error(m.readCommittedMode())
	}
}

func TestDecimalScales(t *testing.T) {
	got := decimalScales("taxrate", []string{"tx_id", "tx_rate", "nope"})
	if got[0] != -1 || got[1] != 5 || got[2] != -1 {
		t.Errorf("taxrate scales %v", got)
	}
	if got := decimalScales("unknown", []string{"a"}); got[0] != -1 {
		t.Errorf("unknown table %v", got)
	}
	// The string a float becomes at scale 2 is the cents the loader meant.
	if s := strconv.FormatFloat(float64(2537)/100, 'f', decimalScales("last_trade", []string{"lt_price"})[0], 64); s != "25.37" {
		t.Errorf("lt_price %s", s)
	}
}

func TestOpenSQLServerRefusedIsConnection(t *testing.T) {
	_, err := Open(context.Background(), "sqlserver://sa:Very$ecret99@127.0.0.1:1?database=bb", database.Options{Timeout: 2 * time.Second})
	if err == nil {
		t.Fatal("connected to port 1")
	}
	if c := database.Classify(err); c != database.Connection {
		t.Errorf("refused connection classified %s: %v", c, err)
	}
	if strings.Contains(err.Error(), "Very$ecret99") {
		t.Errorf("password in %v", err)
	}
}
