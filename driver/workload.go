package driver

import (
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// Workload is the catalogue's transaction types as results needs them: the names
// --limit takes, the default limits, the read-only types merge needs. results keys
// figures by transaction type but imports nothing of ours, so the command hands this
// value to what needs these facts (limits, merge, the HTML report's limits table).
func Workload() results.Workload {
	var w results.Workload
	for _, s := range txn.Catalogue {
		w = append(w, results.Transaction{Name: s.Name, ReadOnly: s.ReadOnly, Limit: s.Limit})
	}
	return w
}
