package results

import (
	"slices"
	"time"
)

// Transaction is one transaction type of the workload as results needs it. The
// workload's catalogue (txn.Catalogue) states these facts once; results restates none
// of them and imports nothing of ours, so whoever knows the catalogue hands them in as
// a Workload.
type Transaction struct {
	// Name is the display name result files key figures by: "Trade-Order".
	Name string
	// ReadOnly is a transaction that commits nothing: merge counts a commit for every
	// other one that did not roll back, as the driver does.
	ReadOnly bool
	// Limit is the default 90th-percentile response-time limit, 0 for none.
	Limit time.Duration
}

// Workload is the workload's transaction types, each named once: the names --limit
// takes, the default limits, the read-only types merge needs. The command builds it
// from the catalogue (driver.Workload) and passes it to what needs these facts; what a
// result file records (its limits) is read from the file instead.
type Workload []Transaction

// Names are the transaction types' names, sorted: the limits table is keyed by them,
// and a --limit naming anything else is a typo.
func (w Workload) Names() []string {
	names := make([]string, 0, len(w))
	for _, t := range w {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

// DefaultLimits are the transaction types' default 90th-percentile response-time
// limits (their catalogue rows say where the figures come from). They are this tool's
// defaults, not a claim of TPC-E compliance.
func (w Workload) DefaultLimits() Limits {
	l := Limits{}
	for _, t := range w {
		if t.Limit > 0 {
			l[t.Name] = t.Limit
		}
	}
	return l
}

// ReadOnly says whether the transaction type name commits nothing; a name the
// workload does not know writes, as the driver counts it.
func (w Workload) ReadOnly(name string) bool {
	for _, t := range w {
		if t.Name == name {
			return t.ReadOnly
		}
	}
	return false
}
