package driver

// isGiveUp and isCheck recognise txn's GiveUpError and CheckError.
// TODO(driver): switch to errors.As(err, *txn.GiveUpError) and txn.IsCheck once
// they are committed in package txn.
func isGiveUp(err error) bool { return false }
func isCheck(err error) bool  { return false }
