package txn

import (
	"regexp"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// TestMySQLStatements rejects PostgreSQL-only syntax in the MySQL set, and checks
// that every statement binds as many ? as its portable text has parameters (MySQL
// binds by position, so an override may not drop or repeat one).
func TestMySQLStatements(t *testing.T) {
	my := mustRender(database.MySQL)
	pg := PostgresSQL()
	bad := regexp.MustCompile(`\$[0-9]|nextval|INTERVAL '|::|AS INTEGER\)|\bILIKE\b|string_agg|\|\||\bTOP\b`)
	param := regexp.MustCompile(`\$([0-9]+)`)
	for _, s := range registry {
		text := my.of(s)
		if m := bad.FindString(text); m != "" {
			t.Errorf("%s: %q is not MySQL (or not wanted): %s", s.Name, m, text)
		}
		distinct := map[string]bool{}
		for _, m := range param.FindAllStringSubmatch(pg.of(s), -1) {
			distinct[m[1]] = true
		}
		if n := strings.Count(text, "?"); n != len(distinct) {
			t.Errorf("%s: %d placeholders for %d parameters: %s", s.Name, n, len(distinct), text)
		}
	}
	if s := my.of(tradeOrderNextTradeID); s != "SELECT NEXT VALUE FOR "+schema.TradeIDSequence {
		t.Errorf("trade ids: %s", s)
	}
	for _, s := range []*Statement{tradeResultTrade, tradeResultAccount, tradeResultLotsAsc, tradeResultLotsDesc} {
		if !strings.HasSuffix(my.of(s), "FOR UPDATE") {
			t.Errorf("Trade-Result's locking read lost FOR UPDATE: %s", my.of(s))
		}
	}
}
