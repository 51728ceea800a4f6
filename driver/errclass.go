package driver

import (
	"errors"

	"github.com/brokerbench/brokerbench/txn"
)

// isGiveUp: a transaction that kept failing with serialization failures or
// deadlocks until the executor's retry bound.
func isGiveUp(err error) bool {
	var g *txn.GiveUpError
	return errors.As(err, &g)
}

// isCheck: a transaction whose output broke one of the reference's checks.
func isCheck(err error) bool { return txn.IsCheck(err) }

var _ Deck = (*txn.Deck)(nil)
