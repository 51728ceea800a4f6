package report

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

func TestParseLimit(t *testing.T) {
	for _, tc := range []struct {
		expr string
		name string
		want time.Duration
		bad  string // part of the error, "" when valid
	}{
		{expr: "trade-status.p90=500ms", name: "Trade-Status", want: 500 * time.Millisecond},
		{expr: " Trade-Result.P90 = 1.5s ", name: "Trade-Result", want: 1500 * time.Millisecond},
		{expr: "market-feed.p90=250", name: "Market-Feed", want: 250 * time.Millisecond},
		{expr: "data-maintenance.p90=10s", name: "Data-Maintenance", want: 10 * time.Second},
		{expr: "trade-lookup.p90=none", name: "Trade-Lookup", want: 0},
		{expr: "trade-status.p95=1s", bad: "90th percentile only"},
		{expr: "trade-status=1s", bad: "no figure"},
		{expr: "trade-staus.p90=1s", bad: "unknown transaction"},
		{expr: "trade-status.p90", bad: "no '='"},
		{expr: "trade-status.p90=", bad: "no limit"},
		{expr: "trade-status.p90=-1s", bad: "not a positive time"},
		{expr: "trade-status.p90=0", bad: "not a positive time"},
		{expr: "trade-status.p90=fast", bad: "not a positive time"},
	} {
		name, d, err := runfixture.Workload().ParseLimit(tc.expr)
		if tc.bad != "" {
			var le *results.LimitError
			if err == nil || !errors.As(err, &le) || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("ParseLimit(%q) = %v, want a LimitError with %q", tc.expr, err, tc.bad)
			}
			continue
		}
		if err != nil || name != tc.name || d != tc.want {
			t.Errorf("ParseLimit(%q) = %q, %v, %v; want %q, %v", tc.expr, name, d, err, tc.name, tc.want)
		}
	}
}

func TestLimitOverrides(t *testing.T) {
	wl := runfixture.Workload()
	got, err := wl.Limits([]string{"trade-status.p90=500ms", "trade-order.p90=none", "trade-status.p90=700ms", "data-maintenance.p90=30s"})
	if err != nil {
		t.Fatal(err)
	}
	if got["Trade-Status"] != 700*time.Millisecond {
		t.Errorf("the later override must win: %v", got["Trade-Status"])
	}
	if _, ok := got["Trade-Order"]; ok {
		t.Error("=none must drop the limit")
	}
	if got["Data-Maintenance"] != 30*time.Second || got["Market-Feed"] != 2*time.Second {
		t.Errorf("got %v", got)
	}
	if wl.DefaultLimits()["Trade-Status"] != time.Second || wl.DefaultLimits()["Trade-Order"] != 2*time.Second {
		t.Error("overrides changed the defaults")
	}
	_, err = wl.Limits([]string{"x.p90=1s", "trade-status.p99=1s"})
	if err == nil || !strings.Contains(err.Error(), `"x.p90=1s"`) || !strings.Contains(err.Error(), `"trade-status.p99=1s"`) {
		t.Errorf("want both errors, got %v", err)
	}
}

// TestDefaultLimitsTable pins the documented table (README, result-format.md).
func TestDefaultLimitsTable(t *testing.T) {
	want := map[string]time.Duration{
		"Trade-Status": time.Second, "Trade-Order": 2 * time.Second, "Trade-Result": 2 * time.Second, "Market-Feed": 2 * time.Second,
		"Broker-Volume": 3 * time.Second, "Customer-Position": 3 * time.Second, "Market-Watch": 3 * time.Second,
		"Security-Detail": 3 * time.Second, "Trade-Lookup": 3 * time.Second, "Trade-Update": 3 * time.Second,
	}
	lims := runfixture.Workload().DefaultLimits()
	if len(lims) != len(want) {
		t.Fatalf("%d limits, want %d", len(lims), len(want))
	}
	for k, v := range want {
		if lims[k] != v {
			t.Errorf("%s: %v, want %v", k, lims[k], v)
		}
	}
	for _, none := range []string{"Data-Maintenance", "Trade-Cleanup"} {
		if _, ok := lims[none]; ok {
			t.Errorf("%s must have no limit", none)
		}
	}
}

func TestBrokenAndJudge(t *testing.T) {
	st := &results.Step{MeasuredS: 60, Transactions: map[string]results.TxnStats{
		"Trade-Status":      {Count: 100, P90MS: 1300},
		"Trade-Order":       {Count: 100, P90MS: 2000}, // at the limit: holds
		"Customer-Position": {Count: 100, P90MS: 3100},
		"Data-Maintenance":  {Count: 1, P90MS: 60000}, // no limit
		"Trade-Update":      {Count: 0, P90MS: 9000},  // did not run
	}}
	lims := runfixture.Workload().DefaultLimits()
	st.LimitsBroken = figures.BrokenLimits(lims, st)
	if want := []string{"Customer-Position", "Trade-Status"}; !slices.Equal(st.LimitsBroken, want) {
		t.Fatalf("Broken = %v, want %v", st.LimitsBroken, want)
	}
	v := figures.JudgeLimits(lims, st)
	if v.Pass || v.Limiting != "Trade-Status" || v.Why != "Trade-Status p90 1.3 s > 1 s and 1 more over their limits" {
		t.Errorf("Judge = %+v; Trade-Status is 30 %% over, Customer-Position 3 %%", v)
	}
	ok := &results.Step{MeasuredS: 60, Transactions: map[string]results.TxnStats{"Trade-Status": {Count: 1000, P90MS: 10, Errors: 9}}}
	if v := figures.JudgeLimits(lims, ok); !v.Pass {
		t.Errorf("0.9 %% errors must pass: %+v", v)
	}
	ok.Transactions["Trade-Status"] = results.TxnStats{Count: 990, P90MS: 10, Errors: 10}
	if v := figures.JudgeLimits(lims, ok); v.Pass || !strings.Contains(v.Why, "errors 1.0 %") {
		t.Errorf("1 %% errors must fail: %+v", v)
	}
	if v := figures.JudgeLimits(lims, &results.Step{}); v.Pass {
		t.Error("a step that measured nothing must not pass")
	}
}

func TestReportShowsLimits(t *testing.T) {
	r := runfixture.SampleRun("A", []int{10, 20}, 1, 1, 1)
	lims, _ := runfixture.Workload().Limits([]string{"trade-order.p90=1ms"})
	r.Limits = lims.Record()
	for i := range r.Steps {
		r.Steps[i].LimitsBroken = figures.BrokenLimits(lims, &r.Steps[i])
	}
	var b strings.Builder
	if err := WriteReport(&b, results.Input{Path: "a.json", Run: r}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"limits", "FAIL: Trade-Order", "p90 limit", "1 ms", "trade-order 1 ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// A file from before limits were recorded shows no limits column.
	var old strings.Builder
	if err := WriteReport(&old, results.Input{Path: "old.json", Run: runfixture.SampleRun("A", []int{10}, 1, 1, 1)}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(old.String(), "p90 limit") {
		t.Error("a file without limits must not be judged")
	}
}

// TestLimitsNoteAndTable pins what the reports say of the limits: the note names the
// limits the file recorded, sorted by name; the HTML report's table lists every
// transaction type the workload knows, "none" where the file has no limit.
func TestLimitsNoteAndTable(t *testing.T) {
	lims := runfixture.Workload().DefaultLimits()
	want := "limits: a step passes when every transaction's p90 is within its limit and errors stay under 1 % (" +
		"broker-volume 3 s, customer-position 3 s, market-feed 2 s, market-watch 3 s, security-detail 3 s, " +
		"trade-lookup 3 s, trade-order 2 s, trade-result 2 s, trade-status 1 s, trade-update 3 s)."
	if got := limitsNote(lims); got != want {
		t.Errorf("note\n %q\nwant\n %q", got, want)
	}
	var rows []string
	for _, r := range limitsTable(lims, runfixture.Workload()).Rows {
		rows = append(rows, r[0].Text+" "+r[1].Text)
	}
	wantRows := []string{"Broker-Volume 3 s", "Customer-Position 3 s", "Data-Maintenance none", "Market-Feed 2 s",
		"Market-Watch 3 s", "Security-Detail 3 s", "Trade-Cleanup none", "Trade-Lookup 3 s", "Trade-Order 2 s",
		"Trade-Result 2 s", "Trade-Status 1 s", "Trade-Update 3 s"}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("table rows\n %q\nwant\n %q", rows, wantRows)
	}
}
