package loader

import (
	"strings"
	"testing"
	"time"

	_ "github.com/brokerbench/brokerbench/database/mysql" // measured, and first by name
	"github.com/brokerbench/brokerbench/schema"
)

// testModel has round figures so the expected plans can be worked out by hand: 10 MB
// fixed, 100 MB per load unit, 10 MB per load unit and day, so one load unit at 300
// days is 3,110 MB with the fixed part.
var testModel = SizeModel{Dialect: "postgres", FixedBytes: 10e6, PerLUBytes: 100e6, PerLUDayBytes: 10e6, LoadBytesPerSec: 10e6, Measured: true}

func TestPlanArithmetic(t *testing.T) {
	sc := schema.Scale{Customers: 3000, TradeDays: 20}
	p := PlanFor(sc, testModel)
	if want := int64(10e6 + 3*100e6 + 3*20*10e6); p.Bytes != want {
		t.Errorf("Bytes(3 LU, 20 days) = %d, want %d", p.Bytes, want)
	}
	if want := 91 * time.Second; p.Duration != want {
		t.Errorf("Duration = %v, want %v", p.Duration, want)
	}
	for _, tc := range []struct {
		target    int64
		customers int64
		days      int
	}{
		// Exactly one load unit at 300 days.
		{3110e6, 1000, 300},
		// Less than one unit at 300 days: one unit, a shorter history (floor).
		{1000e6, 1000, 89},
		// A little more than one unit at 300 days: two units, the history shortened to
		// stay within the target: (3200 - 10 - 200) / 20 = 149.5 -> 149.
		{3200e6, 2000, 149},
		// Exactly ten units at 300 days.
		{31000e6 + 10e6, 10000, 300},
		// Between 10 and 11 units: 11 units, (31,500 - 10 - 1,100) / 110 = 276.
		{31500e6, 11000, 276},
		// The smallest load is 1 unit and 5 days: 160 MB.
		{160e6, 1000, 5},
	} {
		p, err := PlanForSize(tc.target, testModel)
		if err != nil {
			t.Errorf("PlanForSize(%d): %v", tc.target, err)
			continue
		}
		if p.Scale.Customers != tc.customers || p.Scale.TradeDays != tc.days {
			t.Errorf("PlanForSize(%s) = %d customers, %d days, want %d, %d", FormatBytes(tc.target), p.Scale.Customers, p.Scale.TradeDays, tc.customers, tc.days)
		}
		if err := p.Scale.Validate(); err != nil {
			t.Errorf("PlanForSize(%s) gave an invalid scale: %v", FormatBytes(tc.target), err)
		}
		if p.Bytes > tc.target {
			t.Errorf("PlanForSize(%s) plans %s, over the target", FormatBytes(tc.target), FormatBytes(p.Bytes))
		}
	}
	// Over a wide range the plan stays within the target and within a day of the
	// plan's load units of it, and the days are at least 150 once there are two units.
	for target := int64(200e6); target < 5e12; target = target * 23 / 20 {
		p, err := PlanForSize(target, testModel)
		if err != nil {
			t.Fatalf("PlanForSize(%d): %v", target, err)
		}
		lu := p.Scale.LoadUnits()
		if p.Bytes > target || (p.Scale.TradeDays < schema.MaxTradeDays && target-p.Bytes >= lu*testModel.PerLUDayBytes) {
			t.Errorf("PlanForSize(%s) = %d LU x %d days = %s", FormatBytes(target), lu, p.Scale.TradeDays, FormatBytes(p.Bytes))
		}
		if lu >= 2 && p.Scale.TradeDays < 150 {
			t.Errorf("PlanForSize(%s) = %d LU x %d days: under 150 days", FormatBytes(target), lu, p.Scale.TradeDays)
		}
	}
	if _, err := PlanForSize(159e6, testModel); err == nil || !strings.Contains(err.Error(), "smallest load") {
		t.Errorf("a target below the smallest load: %v", err)
	}
}

// The measured model: 50 GB on PostgreSQL is a few load units at close to 300 days,
// and the plan line names customers, days, size and time; SQL Server's says its
// figures are PostgreSQL's.
func TestPlanForSizeMeasured(t *testing.T) {
	p, err := PlanForSize(50e9, SizeModelFor("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Scale.LoadUnits() < 2 || p.Scale.LoadUnits() > 6 || p.Scale.TradeDays < 150 || p.Bytes > 50e9 || p.Bytes < 45e9 {
		t.Errorf("50 GB: %s", p)
	}
	line := p.String()
	t.Log(line)
	for _, w := range []string{"customers", "trade days", "GB", "at the measured load rate"} {
		if !strings.Contains(line, w) {
			t.Errorf("plan line lacks %q: %s", w, line)
		}
	}
	if s := PlanFor(p.Scale, SizeModelFor("sqlserver")).String(); !strings.Contains(s, "not measured") {
		t.Errorf("SQL Server plan does not say its sizes are unmeasured: %s", s)
	}
	// SQL Server takes the sizes of the engine it names alike (PostgreSQL), not the
	// first measured one by name (MySQL); MySQL has its own.
	if m := SizeModelFor("sqlserver"); m.Measured || m.Source != "PostgreSQL" {
		t.Errorf("SQL Server's stand-in sizes: measured %v, from %q; want PostgreSQL's", m.Measured, m.Source)
	}
	if m := SizeModelFor("mysql"); !m.Measured || m.PerLUDayBytes == SizeModelFor("postgres").PerLUDayBytes {
		t.Errorf("MySQL's sizes: %+v", m)
	}
}
