package driver

import (
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/txn"
)

func TestProcessingDelay(t *testing.T) {
	for _, tc := range []struct {
		u    float64
		want time.Duration
	}{
		{0, 0},
		{1 - 1/2.718281828459045, time.Second},
		{0.999, 5 * time.Second}, // capped
	} {
		got := ProcessingDelay(time.Second, 5*time.Second, tc.u)
		if d := got - tc.want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("ProcessingDelay(u=%g) = %s, want %s", tc.u, got, tc.want)
		}
	}
}

func TestFillPriceAndMoney(t *testing.T) {
	for _, tc := range []struct {
		tt      string
		limit   int64
		current int64
		money   bool
		fill    int64
	}{
		{schema.MarketBuy, 0, 2500, true, 2500},
		{schema.MarketSell, 0, 2500, true, 2500},
		{schema.LimitBuy, 2400, 2500, false, 2400},
		{schema.LimitBuy, 2600, 2500, true, 2500},
		{schema.LimitSell, 2600, 2500, false, 2600},
		{schema.LimitSell, 2400, 2500, true, 2500},
		{schema.StopLoss, 2400, 2500, false, 2500},
		{schema.StopLoss, 2600, 2500, true, 2500},
	} {
		r := txn.MarketRequest{TradeType: tc.tt, Price: tc.limit, IsLimit: tc.limit != 0}
		if got := InTheMoney(r, tc.current); got != tc.money {
			t.Errorf("%s limit %d at %d: in the money %v, want %v", tc.tt, tc.limit, tc.current, got, tc.money)
		}
		if got := FillPrice(r, tc.current); got != tc.fill {
			t.Errorf("%s limit %d at %d: fills at %d, want %d", tc.tt, tc.limit, tc.current, got, tc.fill)
		}
	}
}

func TestArm(t *testing.T) {
	const sec = 42
	cur := schema.PriceAt(sec, 100)
	for _, tc := range []struct {
		name    string
		r       txn.MarketRequest
		trigger bool
		ok      bool
		later   bool
	}{
		{"market order", txn.MarketRequest{SecIndex: sec, TradeType: schema.MarketBuy}, false, true, false},
		{"limit buy in the money", txn.MarketRequest{SecIndex: sec, TradeType: schema.LimitBuy, Price: cur + 1, IsLimit: true}, true, true, false},
		{"limit sell waits for the wave", txn.MarketRequest{SecIndex: sec, TradeType: schema.LimitSell, Price: cur + 50, IsLimit: true}, true, true, true},
		{"limit outside the wave never fills", txn.MarketRequest{SecIndex: sec, TradeType: schema.LimitSell, Price: 3500, IsLimit: true}, false, false, false},
	} {
		trigger, after, ok := Arm(tc.r, 100)
		if trigger != tc.trigger || ok != tc.ok || (after > 0) != tc.later {
			t.Errorf("%s: trigger %v after %.0f s ok %v", tc.name, trigger, after, ok)
		}
		if tc.later {
			p := schema.PriceAt(sec, 100+after)
			if p < tc.r.Price-1 {
				t.Errorf("%s: at the crossing the price is %d, limit %d", tc.name, p, tc.r.Price)
			}
		}
	}
}
