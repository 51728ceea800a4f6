package loader

import (
	"context"
	"fmt"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/schema"
)

// openTest opens dsn with the loader's pool size for the test.
func openTest(t *testing.T, dsn string) database.DB {
	t.Helper()
	return testpg.OpenDB(t, dsn, database.Options{MaxConns: MaxConnections})
}

// The binary NUMERIC encoder agrees with PostgreSQL's own parser for every scale and
// sign the schema uses, including zeros, trailing zero groups and large values.
func TestPGNumericEncodingRoundTrips(t *testing.T) {
	t.Parallel()
	db := openTest(t, testpg.NewDB(t))
	ctx := context.Background()
	if _, err := db.Exec(ctx, "CREATE TABLE n (id INTEGER, s SMALLINT, v NUMERIC(20,6))"); err != nil {
		t.Fatal(err)
	}
	type c struct {
		u     int64
		scale int
		text  string
	}
	cases := []c{{0, 2, "0.00"}, {1, 2, "0.01"}, {-1, 2, "-0.01"}, {12345, 2, "123.45"}, {100000000, 2, "1000000.00"},
		{-999999999, 2, "-9999999.99"}, {10000, 2, "100.00"}, {12345, 5, "0.12345"}, {35000, 5, "0.35000"},
		{123456789012345, 2, "1234567890123.45"}, {7, 0, "7"}, {10000, 0, "10000"}, {-20000000, 4, "-2000.0000"}}
	format := postgres.Engine.RowFormat
	enc := encodedRows{format.NewEncoder(3, chunkBytes)}
	for i, k := range cases {
		enc.Int32(int32(i))
		enc.Int16(int16(k.scale))
		enc.Decimal(k.u, k.scale)
		enc.EndRow()
	}
	ch := make(chan chunk, 1)
	ch <- enc.Take()
	close(ch)
	s := &sink{table: schema.Table{Name: "n"}, ch: ch, prog: &TableProgress{}, format: format}
	n, err := db.(database.SegmentLoader).LoadSegment(ctx, database.Segment{Table: "n", Columns: []string{"id", "s", "v"},
		Binary: &chunkReader{ctx: ctx, s: s}, Freeze: true})
	if err != nil || n != int64(len(cases)) {
		t.Fatalf("copy: %d rows, %v", n, err)
	}
	for i, k := range cases {
		var got string
		if err := db.QueryRow(ctx, fmt.Sprintf("SELECT round(v, s)::text FROM n WHERE id = %d", i)).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != k.text {
			t.Errorf("Decimal(%d, %d) = %s, want %s", k.u, k.scale, got, k.text)
		}
	}
}

// The generic bulk path (boxed values through database.DB.Bulk, what SQL Server uses)
// stores exactly what the PostgreSQL binary fast path stores.
func TestGenericPathMatchesBinaryPath(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sc := schema.Scale{Customers: 1000, TradeDays: 5}
	ks := newKeyspace(sc, 7)
	var jobs []job
	for _, j := range plan(ks) {
		// Fixed and market tables cover every column type and NULLs; one customer
		// group covers the rest without a full load.
		if j.kind == kindFixed || j.kind == kindMarket || (j.kind == kindCustomer && j.part == 3) {
			jobs = append(jobs, j)
		}
	}
	sums := map[bool]map[string]string{}
	for _, generic := range []bool{false, true} {
		db := openTest(t, testpg.NewDB(t))
		ddl := postgres.Engine.DDL
		for _, tb := range append(loadedTables(), segmentTable()) {
			if _, err := db.Exec(ctx, ddl.CreateTable(tb)); err != nil {
				t.Fatal(err)
			}
		}
		if err := (generation{db: db, jobs: jobs, o: Options{Scale: sc, Workers: 2, Generic: generic}, tr: NewTracker(sc), loaded: func(schema.Table) {}, sql: postgres.Engine.SQL}).run(ctx); err != nil {
			t.Fatalf("generic=%v: %v", generic, err)
		}
		sums[generic] = map[string]string{}
		for _, tb := range []string{"status_type", "taxrate", "exchange", "commission_rate", "address", "company", "financial",
			"security", "last_trade", "customer", "customer_taxrate", "watch_item", "account_permission"} {
			var s string
			q := fmt.Sprintf("SELECT count(*) || ':' || md5(string_agg(x::text, '|' ORDER BY x::text)) FROM %s x", tb)
			if err := db.QueryRow(ctx, q).Scan(&s); err != nil {
				t.Fatal(err)
			}
			sums[generic][tb] = s
		}
	}
	for tb, s := range sums[false] {
		if sums[true][tb] != s {
			t.Errorf("%s: binary path %s, generic path %s", tb, s, sums[true][tb])
		}
		if s[:2] == "0:" {
			t.Errorf("%s: no rows loaded", tb)
		}
	}
}

// businessMicros is schema.BusinessTime without time.Time; they agree to the
// microsecond across days, weeks and the end of the window.
func TestBusinessMicrosMatchesBusinessTime(t *testing.T) {
	for _, sec := range []float64{0, 0.495, 1, 28799.999, 28800, 28800.5, 5*28800 - 1, 5 * 28800, 7*28800 + 123.456, 300 * 28800} {
		want := schema.BusinessTime(sec).UnixMicro()
		if got := businessMicros(sec); got < want-1 || got > want+1 {
			t.Errorf("businessMicros(%v) = %d, BusinessTime = %d", sec, got, want)
		}
	}
}
