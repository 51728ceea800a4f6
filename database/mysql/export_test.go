package mysql

// Hooks for the external tests (package mysql_test).

// NameSnapshotVariable makes Open ask for session variable v instead of
// innodb_snapshot_isolation until restore is called.
func NameSnapshotVariable(v string) (restore func()) {
	old := snapshotIsolation
	snapshotIsolation = v
	return func() { snapshotIsolation = old }
}

// SnapshotChecks says whether m's sessions run with innodb_snapshot_isolation on.
func (m *DB) SnapshotChecks() bool { return m.snapshotChecks }
