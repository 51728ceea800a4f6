package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// serverVariables are the settings a result file records: what decides how InnoDB
// writes (flush policy, doublewrite, redo size, I/O capacity), how much it caches and
// how the workload's transactions are isolated. A name the server does not have is
// simply absent (MariaDB 10.11 says tx_isolation, MySQL 8 transaction_isolation;
// innodb_snapshot_isolation is MariaDB's).
var serverVariables = []string{
	"innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "innodb_doublewrite", "innodb_flush_method",
	"innodb_log_file_size", "innodb_io_capacity", "innodb_io_capacity_max", "innodb_page_size",
	"innodb_read_ahead_threshold", "innodb_flush_neighbors", "innodb_lock_wait_timeout",
	"sync_binlog", "log_bin", "max_connections", "performance_schema", "local_infile",
	"tx_isolation", "transaction_isolation", snapshotIsolation,
	"datadir", "innodb_log_group_home_dir", "innodb_data_home_dir",
}

// Server describes the server for the result file: product and version from
// VERSION(), the settings above, and the data and redo directories for the I/O
// sampler.
func (m *DB) Server(ctx context.Context) (database.ServerInfo, error) {
	info := database.ServerInfo{Product: "MySQL", Settings: map[string]string{}}
	var version string
	if err := m.DB.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return info, fmt.Errorf("MySQL version: %w", err)
	}
	if m.mariadb {
		info.Product = "MariaDB"
	}
	info.Version, info.Num = shortVersion(version)
	info.Settings["version"] = version
	vars, err := m.variables(ctx, serverVariables)
	if err != nil {
		return info, fmt.Errorf("MySQL settings: %w", err)
	}
	for k, v := range vars {
		switch k {
		case "datadir", "innodb_log_group_home_dir", "innodb_data_home_dir":
		default:
			info.Settings[k] = v
		}
	}
	info.DataDir = filepath.Clean(vars["datadir"])
	info.WALDir = info.DataDir
	if d := vars["innodb_log_group_home_dir"]; d != "" && d != "./" {
		info.WALDir = resolveDir(info.DataDir, d)
	}
	if m.snapshotChecks {
		info.Notes = append(info.Notes, "InnoDB's repeatable read with innodb_snapshot_isolation: a write or locking read of a row changed since the "+
			"transaction's snapshot fails and the transaction is rerun, as on PostgreSQL; conflicts wait on row locks and end in deadlocks or lock wait timeouts, which are retried; "+
			"Trade-Order, whose only writes are inserts, runs without the checks, which would fail its foreign-key checks on rows Trade-Result updates (docs/mysql.md §3)")
	} else {
		info.Notes = append(info.Notes, "InnoDB's repeatable read without innodb_snapshot_isolation (this server lacks it): updates and locking reads act on the newest committed rows, "+
			"so a transaction that reads a value and writes it back changed (Trade-Update) can overwrite a newer one unseen; conflicts wait on row locks (docs/mysql.md §3)")
	}
	return info, nil
}

// resolveDir reads a directory setting relative to the data directory.
func resolveDir(dataDir, d string) string {
	if filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(dataDir, d)
}

// variables reads the named variables as a session of the pool sees them; missing
// ones are left out. The session's values, not the global ones: every connection
// sets its own isolation defaults (sessionDefaults) and the DSN may set more
// (innodb_lock_wait_timeout), and the result file records what the transactions ran
// under. A variable without a session value reads as its global one.
func (m *DB) variables(ctx context.Context, names []string) (map[string]string, error) {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + n + "'"
	}
	rows, err := m.DB.QueryContext(ctx, "SHOW SESSION VARIABLES WHERE Variable_name IN ("+strings.Join(quoted, ", ")+")")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k string
		var v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[strings.ToLower(k)] = v.String
	}
	return out, rows.Err()
}

// shortVersion reads "10.11.19-MariaDB-0+deb12u1" or "8.0.36" as "10.11.19" and
// 101119 (major*10000 + minor*100 + patch); 0 when it cannot.
func shortVersion(v string) (string, int) {
	short, _, _ := strings.Cut(v, "-")
	parts := strings.Split(short, ".")
	if len(parts) < 2 {
		return short, 0
	}
	num := 0
	for i, mult := range []int{10000, 100, 1} {
		if i >= len(parts) {
			break
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return short, 0
		}
		num += n * mult
	}
	return short, num
}
