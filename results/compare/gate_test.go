package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

func TestParseGateGood(t *testing.T) {
	cases := []struct {
		expr, key, op string
		value         float64
		relative      bool
		canonical     string
	}{
		{"tps<-10%", "tps", "<", -10, true, "tps < -10 %"},
		{"p95>+20%", "p95", ">", 20, true, "p95 > +20 %"},
		{"errors>0", "errors", ">", 0, false, "errors > 0"},
		{"trade-result.p90>2s", "trade-result.p90", ">", 2000, false, "trade-result.p90 > 2 s"},
		{"write_iops<-15%", "write_iops", "<", -15, true, "write_iops < -15 %"},
		{" tpse <= -5.5 % ", "tps_e", "<=", -5.5, true, "tps_e <= -5.5 %"},
		{"TPS_E>=1500", "tps_e", ">=", 1500, false, "tps_e >= 1500"},
		{"avg>250ms", "avg", ">", 250, false, "avg > 250 ms"},
		{"avg>250", "avg", ">", 250, false, "avg > 250 ms"},
		{"read_await>1500us", "read_await", ">", 1.5, false, "read_await > 1.5 ms"},
		{"iops<10%", "iops", "<", 10, true, "iops < +10 %"},
		{"Market-Feed.max>=1m", "market-feed.max", ">=", 60000, false, "market-feed.max >= 60 s"},
		{"read_mbps<12.5", "read_mbps", "<", 12.5, false, "read_mbps < 12.5"},
	}
	for _, c := range cases {
		g, err := ParseGate(c.expr)
		if err != nil {
			t.Errorf("ParseGate(%q): %v", c.expr, err)
			continue
		}
		if g.metric.Key != c.key || g.op != c.op || g.value != c.value || g.relative != c.relative {
			t.Errorf("ParseGate(%q) = key %q op %q value %v rel %v", c.expr, g.metric.Key, g.op, g.value, g.relative)
		}
		if g.String() != c.canonical {
			t.Errorf("ParseGate(%q).String() = %q, want %q", c.expr, g.String(), c.canonical)
		}
	}
}

func TestParseGateBad(t *testing.T) {
	cases := []struct{ expr, want string }{
		{"", "no operator"},
		{"tps", "no operator"},
		{"tps=5", "operator must be"},
		{"tps==5", "operator must be"},
		{"<5", "no metric"},
		{"tps<", "no value"},
		{"tps<<5", "more than one operator"},
		{"tps<=>5", "more than one operator"},
		{"tpz<-10%", `unknown metric "tpz"`},
		{"tps<-ten%", "not a percentage"},
		{"tps<NaN%", "not a percentage"},
		{"tps<2s", "a unit is allowed only for times"},
		{"p95>2 parsecs", "not a number or a time"},
		{"p95>-2s", "not a number or a time"},
		{"errors>Inf", "not a finite number"},
		{"trade-result.p42>2s", `unknown transaction figure "p42"`},
		{"Trade Result.p90>2s", "not written as a slug"},
		{".p90>1", "unknown metric"},
	}
	for _, c := range cases {
		_, err := ParseGate(c.expr)
		var se *GateSyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseGate(%q) = %v, want a GateSyntaxError", c.expr, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "--fail-if") || strings.Contains(msg, "\n") {
			t.Errorf("ParseGate(%q) error %q: want one line naming the expression and %q", c.expr, msg, c.want)
		}
	}
	// All bad expressions are reported at once.
	_, err := ParseGates([]string{"tps<-10%", "bogus", "p95>x"})
	if err == nil || !strings.Contains(err.Error(), "bogus") || !strings.Contains(err.Error(), `"p95>x"`) {
		t.Fatalf("ParseGates: %v", err)
	}
}

func TestCheckGates(t *testing.T) {
	base := runfixture.SampleRun("base", []int{50, 100}, 1, 1, 1)
	// 20 % slower transactions and 12 % fewer of them at 100 users.
	slow := runfixture.SampleRun("slow", []int{50, 100}, 1, 1.2, 2)
	slow.Steps[1].TPS = base.Steps[1].TPS * 0.877
	c, err := Compare([]results.Input{{Path: "b.json", Run: base}, {Path: "s.json", Run: slow}})
	if err != nil {
		t.Fatal(err)
	}
	gates, err := ParseGates([]string{"tps<-10%", "p95>+50%", "errors>0", "trade-result.p90>1ms", "write_iops<-15%"})
	if err != nil {
		t.Fatal(err)
	}
	trips, err := c.CheckGates(gates)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range trips {
		got = append(got, tr.String())
	}
	want := []string{
		"run slow at 50 users: errors 6 > 0",
		"run slow at 50 users: trade-result.p90",
		"run slow at 100 users: tps -12.3 % < -10 %",
		"run slow at 100 users: errors 6 > 0",
		"run slow at 100 users: trade-result.p90",
	}
	if len(got) != len(want) {
		t.Fatalf("trips:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("trip %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	if !strings.HasSuffix(got[1], "> 1 ms") {
		t.Errorf("absolute time trip reads %q", got[1])
	}

	// The base is never gated: comparing a run with itself trips no relative gate.
	same, _ := Compare([]results.Input{{Path: "b.json", Run: base}, {Path: "b2.json", Run: base}})
	trips, _ = same.CheckGates(gates[:2])
	if len(trips) != 0 {
		t.Fatalf("self comparison tripped: %v", trips)
	}

	// Without storage figures in the other run, an I/O gate cannot be checked.
	noIO := runfixture.SampleRun("noio", []int{50}, 1, 1, 3)
	noIO.Steps[0].IO = nil
	c2, _ := Compare([]results.Input{{Path: "b.json", Run: base}, {Path: "n.json", Run: noIO}})
	iops, _ := ParseGate("iops<-10%")
	if un := c2.Unevaluated([]Gate{gates[0], iops}); len(un) != 1 || un[0].Expr != "iops<-10%" {
		t.Fatalf("unevaluated %v", un)
	}
	if un := c.Unevaluated(gates); len(un) != 0 {
		t.Fatalf("unevaluated with full data: %v", un)
	}

	g, _ := ParseGate("trade-lookup.p95>1s")
	if _, err := c.CheckGates([]Gate{g}); err == nil || !strings.Contains(err.Error(), `no transaction "trade-lookup"`) {
		t.Fatalf("unknown transaction: %v", err)
	}
}

func FuzzParseGate(f *testing.F) {
	for _, s := range []string{"tps<-10%", "p95>+20%", "errors>0", "trade-result.p90>2s", "write_iops<-15%", "a.b.c<=1e308", "<>", "x<1µs", "%<%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		g, err := ParseGate(expr)
		if err != nil {
			var se *GateSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		// A parsed gate's canonical form parses to the same gate.
		g2, err := ParseGate(strings.ReplaceAll(g.String(), " ", ""))
		if err != nil || g2.metric.Key != g.metric.Key || g2.op != g.op || g2.relative != g.relative {
			t.Fatalf("%q → %q does not parse back: %v", expr, g.String(), err)
		}
	})
}
