package results

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Transaction is one transaction type of the workload as results needs it. The
// workload's catalogue (txn.Catalogue) states these facts once; the load driver, which
// records those transactions into results, registers them as it is linked in
// (RegisterTransactions), so results restates none of them and still imports nothing of
// ours.
type Transaction struct {
	// Name is the display name result files key figures by: "Trade-Order".
	Name string
	// ReadOnly is a transaction that commits nothing: merge counts a commit for every
	// other one that did not roll back, as the driver does.
	ReadOnly bool
	// Limit is the default 90th-percentile response-time limit, 0 for none.
	Limit time.Duration
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
