package loader

import (
	"fmt"
	"math"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// SizeModel is a database's size on disk after a load, data and indexes together: its
// engine's measured figures (database.LoadSizes, docs/workload.md §3.3). It is linear
// in load units and trade days; HOLDING and HOLDING_SUMMARY are not, but they are under
// 3 % of a load, so the model slightly overstates long histories.
type SizeModel struct {
	Dialect       string
	FixedBytes    int64 // fixed tables and brokerbench's own
	PerLUBytes    int64 // scaling tables, per 1,000 customers
	PerLUDayBytes int64 // growing tables, per 1,000 customers and trade day
	// LoadBytesPerSec is the load rate (bytes on disk per second of the whole load) of
	// the measured loads, for the time estimate; a faster machine loads faster.
	LoadBytesPerSec float64
	// Measured is false when the figures are another database's, not measured on this
	// one; Source then names the product they were measured on.
	Measured bool
	Source   string
}

// SizeModelFor returns the size model of a registered database: its engine's Sizes, or,
// for a database whose sizes were not measured, those of the engine it names as alike
// (Engine.SizesLike) or else the first (by name) engine's that were, saying so.
func SizeModelFor(dialect string) SizeModel {
	var like database.Name
	if e, err := database.Lookup(database.Name(dialect)); err == nil {
		like = e.SizesLike
	}
	var other *database.Engine
	for _, e := range database.Engines() {
		switch {
		case e.Sizes == nil:
		case e.Name == database.Name(dialect):
			return sizeModel(dialect, e.Sizes, true, e.Product)
		case e.Name == like, other == nil:
			other = e
		}
	}
	if other == nil {
		return SizeModel{Dialect: dialect}
	}
	return sizeModel(dialect, other.Sizes, false, other.Product)
}

func sizeModel(dialect string, s *database.LoadSizes, measured bool, source string) SizeModel {
	return SizeModel{Dialect: dialect, FixedBytes: s.FixedBytes, PerLUBytes: s.PerLUBytes, PerLUDayBytes: s.PerLUDayBytes,
		LoadBytesPerSec: s.LoadBytesPerSec, Measured: measured, Source: source}
}

// Bytes is the model's size of a load at sc.
func (m SizeModel) Bytes(sc schema.Scale) int64 {
	lu := sc.LoadUnits()
	return m.FixedBytes + lu*m.PerLUBytes + lu*int64(sc.TradeDays)*m.PerLUDayBytes
}

// Duration is the model's time for a load at sc.
func (m SizeModel) Duration(sc schema.Scale) time.Duration {
	return time.Duration(float64(m.Bytes(sc)) / m.LoadBytesPerSec * float64(time.Second))
}

// Plan is what a load is about to do, printed before it starts.
type Plan struct {
	Scale    schema.Scale
	Bytes    int64         // estimated size on disk, data and indexes
	Duration time.Duration // estimated load time
	Model    SizeModel
}

// PlanFor estimates a load at a given scale.
func PlanFor(sc schema.Scale, m SizeModel) Plan {
	return Plan{Scale: sc, Bytes: m.Bytes(sc), Duration: m.Duration(sc), Model: m}
}

// PlanForSize picks the scale for a target size on disk the way TPC-E scales: the
// reference's 300 trade days, and as many load units as the size needs. With L the
// fewest load units that reach the target at 300 days, the trade days are then the
// most that keep the load within the target, so a target between two whole load
// units gets L units and a shorter history (at least 150 days when L >= 2) rather than
// a load far off the target. A target below one load unit at 300 days shortens the
// history of one load unit; below the smallest load (one unit, schema.MinTradeDays)
// it is an error.
func PlanForSize(target int64, m SizeModel) (Plan, error) {
	smallest := schema.Scale{Customers: schema.LoadUnit, TradeDays: schema.MinTradeDays}
	if target < m.Bytes(smallest) {
		return Plan{}, fmt.Errorf("%s is below the smallest load (%d customers, %d trade days, about %s)",
			FormatBytes(target), smallest.Customers, smallest.TradeDays, FormatBytes(m.Bytes(smallest)))
	}
	perLU := m.PerLUBytes + schema.MaxTradeDays*m.PerLUDayBytes
	lu := int64(math.Ceil(float64(target-m.FixedBytes) / float64(perLU)))
	lu = max(lu, 1)
	days := (target - m.FixedBytes - lu*m.PerLUBytes) / (lu * m.PerLUDayBytes)
	days = min(max(days, schema.MinTradeDays), schema.MaxTradeDays)
	return PlanFor(schema.Scale{Customers: lu * schema.LoadUnit, TradeDays: int(days)}, m), nil
}

// String is the plan as `load` prints it.
func (p Plan) String() string {
	note := ""
	if !p.Model.Measured {
		note = fmt.Sprintf(" (%s sizes not measured: %s's figures)", p.Model.Dialect, p.Model.Source)
	}
	return fmt.Sprintf("plan: %d customers, %d trade days, about %s on disk with indexes, about %s at the measured load rate%s",
		p.Scale.Customers, p.Scale.TradeDays, FormatBytes(p.Bytes), formatDuration(p.Duration), note)
}

// FormatBytes renders a size in decimal units (GB = 10^9 bytes), as --size reads it.
func FormatBytes(b int64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.1f TB", float64(b)/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	}
	return fmt.Sprintf("%.0f MB", float64(b)/1e6)
}

func formatDuration(d time.Duration) string {
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(math.Ceil(d.Seconds())))
}
