package results

import (
	"fmt"
	"slices"
	"strings"
	"sync"
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

var workload struct {
	mu  sync.RWMutex
	txs []Transaction // sorted by name
}

// RegisterTransactions makes the workload's transaction types known: the names --limit
// takes, the default limits, the read-only types merge needs. A second registration, or
// a name given twice, is a programming error.
func RegisterTransactions(txs []Transaction) {
	workload.mu.Lock()
	defer workload.mu.Unlock()
	if workload.txs != nil {
		panic("results: transactions registered twice")
	}
	sorted := slices.Clone(txs)
	slices.SortFunc(sorted, func(a, b Transaction) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Name == sorted[i-1].Name {
			panic(fmt.Sprintf("results: transaction %q registered twice", sorted[i].Name))
		}
	}
	workload.txs = sorted
}

// Transactions returns the registered transaction types by name.
func Transactions() []Transaction {
	workload.mu.RLock()
	defer workload.mu.RUnlock()
	return slices.Clone(workload.txs)
}

// TransactionNames are the registered transaction types' names, sorted: the limits
// table is keyed by them, and a --limit naming anything else is a typo.
func TransactionNames() []string {
	var names []string
	for _, t := range Transactions() {
		names = append(names, t.Name)
	}
	return names
}

// DefaultLimits are the registered transaction types' default 90th-percentile
// response-time limits (their catalogue rows say where the figures come from). They are
// this tool's defaults, not a claim of TPC-E compliance.
func DefaultLimits() Limits {
	l := Limits{}
	for _, t := range Transactions() {
		if t.Limit > 0 {
			l[t.Name] = t.Limit
		}
	}
	return l
}

// readOnly says whether the transaction type name commits nothing.
func readOnly(name string) bool {
	for _, t := range Transactions() {
		if t.Name == name {
			return t.ReadOnly
		}
	}
	return false
}
