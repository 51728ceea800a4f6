package driver

import (
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// results keys figures, limits and merges by transaction type but imports nothing of
// ours: the driver, which records the catalogue's transactions into it, hands it their
// facts as it is linked in. cmd links the driver in, so report, compare and merge know
// them too.
func init() { results.RegisterTransactions(Workload()) }

// Workload is the catalogue's transaction types as results needs them: the names
// --limit takes, the default limits, the read-only types merge needs. The command
// hands it to what needs these facts; results imports nothing of ours to find them.
func Workload() results.Workload {
	var w results.Workload
	for _, s := range txn.Catalogue {
		w = append(w, results.Transaction{Name: s.Name, ReadOnly: s.ReadOnly, Limit: s.Limit})
	}
	return w
}
