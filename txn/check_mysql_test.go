package txn

import (
	"context"
	"slices"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// TestMariaDBCheckOverridesListThePortableRows: on a copy of the MariaDB test load,
// broken in every way the overridden checks look for (a completed trade without its
// settlement or its CMPT history row, in more trades than a check lists; cash trades
// made non-cash and the reverse; a broker's totals off), each check's MySQL text
// (check_statements.go) lists the very violations, in the same order, that the
// portable text lists on the same database.
func TestMariaDBCheckOverridesListThePortableRows(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the test load into MariaDB; skipped with -short")
	}
	ctx := context.Background()
	db := testmdb.Open(t, testdb.MariaDBLoaded(t), database.Options{MaxConns: 2})
	for _, q := range []string{
		"DELETE FROM settlement WHERE se_t_id % 10000 = 7",
		"DELETE FROM trade_history WHERE th_st_id = 'CMPT' AND th_t_id % 10000 = 3",
		"UPDATE trade SET t_is_cash = NOT t_is_cash WHERE t_id % 50000 = 11",
		"UPDATE broker SET b_num_trades = b_num_trades + 1 WHERE b_id = (SELECT m FROM (SELECT MIN(b_id) AS m FROM broker) x)",
		"UPDATE broker SET b_comm_total = b_comm_total - 1 WHERE b_id = (SELECT m FROM (SELECT MAX(b_id) AS m FROM broker) x)",
	} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	e, err := database.Lookup(database.MySQL)
	if err != nil {
		t.Fatal(err)
	}
	engine := invariantChecks(statementsOf(db).of, testdb.Scale)
	portable := invariantChecks(func(s *Statement) string { return e.SQL(s.portable) }, testdb.Scale)
	for i, c := range engine {
		want, err := portable[i].run(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.run(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the MySQL text lists\n%v\nthe portable text\n%v", c.name, got, want)
		}
		if (c.name == "completed trade" && len(got) != maxPerCheck+1) || (c.name == "broker totals" && len(got) != 2) {
			t.Errorf("%s: %d violations listed, want the breaks made: %v", c.name, len(got), got)
		}
	}
}
