package sqlserver

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// Server describes SQL Server for the result file. The version, edition and
// database settings come from SERVERPROPERTY, sys.databases, sys.configurations and
// sys.database_files, which the public role can read; nothing here needs VIEW SERVER
// STATE.
func (m *MSSQL) Server(ctx context.Context) (database.ServerInfo, error) {
	info := database.ServerInfo{Product: "SQL Server", Settings: map[string]string{}}
	var level, update, collation string
	var engine int
	err := m.DB.QueryRowContext(ctx, `SELECT
		CAST(SERVERPROPERTY('ProductVersion') AS varchar(128)),
		CAST(SERVERPROPERTY('Edition') AS varchar(128)),
		CAST(SERVERPROPERTY('ProductLevel') AS varchar(128)),
		COALESCE(CAST(SERVERPROPERTY('ProductUpdateLevel') AS varchar(128)), ''),
		CAST(SERVERPROPERTY('EngineEdition') AS int),
		CAST(SERVERPROPERTY('Collation') AS varchar(128))`).
		Scan(&info.Version, &info.Edition, &level, &update, &engine, &collation)
	if err != nil {
		return info, fmt.Errorf("SQL Server version: %w", err)
	}
	info.Num = sqlserverVersionNum(info.Version)
	info.Settings["product_level"] = level
	if update != "" {
		info.Settings["product_update_level"] = update
	}
	info.Settings["engine_edition"] = strconv.Itoa(engine)
	info.Settings["server_collation"] = collation
	info.Settings["read_committed_mode"] = m.readCommittedMode()

	var recovery, snapshot, delayed, pageVerify string
	var compat, targetRecovery int
	var rcsi, adr, autoStats bool
	err = m.DB.QueryRowContext(ctx, `SELECT recovery_model_desc, snapshot_isolation_state_desc,
		is_read_committed_snapshot_on, compatibility_level, delayed_durability_desc,
		page_verify_option_desc, is_auto_update_stats_on, is_accelerated_database_recovery_on,
		target_recovery_time_in_seconds
		FROM sys.databases WHERE database_id = DB_ID()`).
		Scan(&recovery, &snapshot, &rcsi, &compat, &delayed, &pageVerify, &autoStats, &adr, &targetRecovery)
	if err != nil {
		return info, fmt.Errorf("SQL Server database settings: %w", err)
	}
	info.Settings["recovery_model"] = recovery
	info.Settings["allow_snapshot_isolation"] = snapshot
	info.Settings["read_committed_snapshot"] = onOff(rcsi)
	info.Settings["compatibility_level"] = strconv.Itoa(compat)
	info.Settings["delayed_durability"] = delayed
	info.Settings["page_verify"] = pageVerify
	info.Settings["auto_update_statistics"] = onOff(autoStats)
	info.Settings["accelerated_database_recovery"] = onOff(adr)
	// Indirect checkpoints: how often dirty pages are written, hence the data writes.
	info.Settings["target_recovery_time_s"] = strconv.Itoa(targetRecovery)

	rows, err := m.DB.QueryContext(ctx, `SELECT name, CAST(value_in_use AS varchar(64)) FROM sys.configurations
		WHERE name IN ('max server memory (MB)', 'min server memory (MB)', 'max degree of parallelism',
		'cost threshold for parallelism', 'max worker threads', 'recovery interval (min)',
		'optimize for ad hoc workloads')`)
	if err != nil {
		return info, fmt.Errorf("SQL Server configuration: %w", err)
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return info, err
		}
		info.Settings[k] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return info, err
	}

	// The files of the benchmark database. The paths are the server's: they help
	// the I/O sampler only when the driver runs on the same host (not in a
	// container with other mounts, not on Windows).
	frows, err := m.DB.QueryContext(ctx, `SELECT type_desc, physical_name FROM sys.database_files
		WHERE type_desc IN ('ROWS', 'LOG') ORDER BY file_id`)
	if err != nil {
		return info, fmt.Errorf("SQL Server database files: %w", err)
	}
	defer frows.Close()
	for frows.Next() {
		var kind, file string
		if err := frows.Scan(&kind, &file); err != nil {
			return info, err
		}
		dir := serverDir(file)
		switch {
		case kind == "ROWS" && info.DataDir == "":
			info.DataDir = dir
		case kind == "LOG" && info.WALDir == "":
			info.WALDir = dir
		}
	}
	return info, frows.Err()
}

// sqlserverVersionNum turns "16.0.4135.4" into 1604135 (major*100000 + build): the
// minor number has stayed 0 since SQL Server 2012 and builds stay below 100000.
func sqlserverVersionNum(v string) int {
	parts := strings.Split(v, ".")
	if len(parts) < 3 {
		return 0
	}
	major, err1 := strconv.Atoi(parts[0])
	build, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return 0
	}
	return major*100000 + build
}

// serverDir is the directory of a server-side path, Windows or Linux.
func serverDir(p string) string {
	if strings.Contains(p, `\`) {
		if i := strings.LastIndex(p, `\`); i >= 0 {
			return p[:i]
		}
	}
	return path.Dir(p)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
