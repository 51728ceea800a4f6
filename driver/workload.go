package driver

import (
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// results keys figures, limits and merges by transaction type but imports nothing of
// ours: the driver, which records the catalogue's transactions into it, hands it their
// facts as it is linked in. cmd links the driver in, so report, compare and merge know
// them too.
func init() { results.RegisterTransactions(resultsTransactions()) }

// resultsTransactions are the catalogue's rows as results needs them.
func resultsTransactions() []results.Transaction {
	var out []results.Transaction
	for _, s := range txn.Catalogue {
		out = append(out, results.Transaction{Name: s.Name, ReadOnly: s.ReadOnly, Limit: s.Limit})
	}
	return out
}
