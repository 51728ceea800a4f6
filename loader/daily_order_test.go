package loader

import (
	"context"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/schema"
)

// TestDailyMarketKeyOrder: DAILY_MARKET's ordered jobs, run in plan order as generate's
// producer runs them, write every row in (dm_s_symb, dm_date) order across load units,
// with every security's 1,305 days, and plan keeps them off the workers.
func TestDailyMarketKeyOrder(t *testing.T) {
	sc := schema.Scale{Customers: 2000, TradeDays: 5}
	ks := newKeyspace(sc, DefaultSeed)
	var prevSym string
	var prevDay time.Time
	rows, symbols := 0, 0
	for _, j := range plan(ks) {
		if j.tables[0] != "daily_market" {
			continue
		}
		if !j.ordered {
			t.Fatalf("%s is not ordered", j)
		}
		enc := newBoxedEncoder(6)
		e := newEmitter([]rowEncoder{enc})
		e.ship = func(_ context.Context, _ int, c chunk) error {
			for _, r := range c.boxed {
				day, sym := r[0].(time.Time), r[1].(string)
				switch {
				case sym < prevSym, sym == prevSym && !day.After(prevDay):
					t.Fatalf("row %d (%s, %s) follows (%s, %s)", rows, sym, day.Format(time.DateOnly), prevSym, prevDay.Format(time.DateOnly))
				case sym != prevSym:
					symbols++
					if !day.Equal(schema.DailyMarketBase) {
						t.Fatalf("%s starts on %s", sym, day.Format(time.DateOnly))
					}
				}
				prevSym, prevDay = sym, day
				rows++
			}
			return nil
		}
		if err := j.run(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		if err := e.flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if want := sc.Rows("daily_market"); int64(rows) != want {
		t.Errorf("%d rows, want %d", rows, want)
	}
	if int64(symbols) != sc.Securities() {
		t.Errorf("%d symbols, want %d", symbols, sc.Securities())
	}
}
