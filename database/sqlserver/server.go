package sqlserver

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// Server describes SQL Server for the result file. The version, edition and
// database settings come from SERVERPROPERTY, sys.databases, sys.configurations and
// sys.database_files, which the public role can read; nothing here needs VIEW SERVER
// STATE. The description is informative: a NULL, a column or view the server lacks,
// or a view the login may not read gives an empty field, never a failed run (servers
// that speak T-SQL without being Microsoft's lack several of these views). Other
// errors (a lost connection) still fail.
func (m *MSSQL) Server(ctx context.Context) (database.ServerInfo, error) {
	info := database.ServerInfo{Product: Engine.Product, Settings: map[string]string{}}
	rows, err := readRows(ctx, m.DB, `SELECT
		CAST(SERVERPROPERTY('ProductVersion') AS varchar(128)) AS version,
		CAST(SERVERPROPERTY('Edition') AS varchar(128)) AS edition,
		CAST(SERVERPROPERTY('ProductLevel') AS varchar(128)) AS product_level,
		CAST(SERVERPROPERTY('ProductUpdateLevel') AS varchar(128)) AS product_update_level,
		CAST(SERVERPROPERTY('EngineEdition') AS int) AS engine_edition,
		CAST(SERVERPROPERTY('Collation') AS varchar(128)) AS server_collation`)
	if err := tolerate(err); err != nil {
		return info, fmt.Errorf("SQL Server version: %w", err)
	}
	if len(rows) > 0 {
		versionInfo(rows[0], &info)
	}
	info.Settings["read_committed_mode"] = m.readCommittedMode()

	// SELECT * rather than named columns: a server without one of them (older
	// versions lack is_accelerated_database_recovery_on) still reports the others.
	rows, err = readRows(ctx, m.DB, `SELECT * FROM sys.databases WHERE database_id = DB_ID()`)
	if err := tolerate(err); err != nil {
		return info, fmt.Errorf("SQL Server database settings: %w", err)
	}
	var db map[string]any
	if len(rows) > 0 {
		db = rows[0]
	}
	for k, v := range databaseSettings(db) {
		info.Settings[k] = v
	}

	rows, err = readRows(ctx, m.DB, `SELECT name, CAST(value_in_use AS varchar(64)) AS value FROM sys.configurations
		WHERE name IN ('max server memory (MB)', 'min server memory (MB)', 'max degree of parallelism',
		'cost threshold for parallelism', 'max worker threads', 'recovery interval (min)',
		'optimize for ad hoc workloads')`)
	if err := tolerate(err); err != nil {
		return info, fmt.Errorf("SQL Server configuration: %w", err)
	}
	for _, r := range rows {
		if k := text(r["name"]); k != "" {
			info.Settings[k] = text(r["value"])
		}
	}

	// The files of the benchmark database. The paths are the server's: they help
	// the I/O sampler only when the driver runs on the same host (not in a
	// container with other mounts, not on Windows).
	rows, err = readRows(ctx, m.DB, `SELECT type_desc, physical_name FROM sys.database_files
		WHERE type_desc IN ('ROWS', 'LOG') ORDER BY file_id`)
	if err := tolerate(err); err != nil {
		return info, fmt.Errorf("SQL Server database files: %w", err)
	}
	info.DataDir, info.WALDir = fileDirs(rows)
	if layout := fileLayout(rows); layout != "" {
		info.Settings["database_files"] = layout
	}
	m.describeEndpoint(ctx, &info)
	return info, nil
}

// fileLayout lists the database's files as "ROWS path; LOG path", so a comparison
// shows when two runs had their data and log on different volumes.
func fileLayout(rows []map[string]any) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, text(r["type_desc"])+" "+text(r["physical_name"]))
	}
	return strings.Join(parts, "; ")
}

// versionInfo fills the product fields from the SERVERPROPERTY row; a NULL property
// leaves its field empty.
func versionInfo(r map[string]any, info *database.ServerInfo) {
	info.Version = text(r["version"])
	info.Edition = text(r["edition"])
	info.Num = sqlserverVersionNum(info.Version)
	info.Settings["product_level"] = text(r["product_level"])
	if u := text(r["product_update_level"]); u != "" {
		info.Settings["product_update_level"] = u
	}
	info.Settings["engine_edition"] = text(r["engine_edition"])
	info.Settings["server_collation"] = text(r["server_collation"])
}

// databaseSettings maps the sys.databases row (nil when the view gave none) to the
// result file's settings; a missing column or a NULL gives an empty value.
func databaseSettings(r map[string]any) map[string]string {
	out := map[string]string{}
	for _, c := range []struct{ key, column string }{
		{"recovery_model", "recovery_model_desc"},
		{"allow_snapshot_isolation", "snapshot_isolation_state_desc"},
		{"read_committed_snapshot", "is_read_committed_snapshot_on"},
		{"compatibility_level", "compatibility_level"},
		{"delayed_durability", "delayed_durability_desc"},
		{"page_verify", "page_verify_option_desc"},
		{"auto_update_statistics", "is_auto_update_stats_on"},
		{"accelerated_database_recovery", "is_accelerated_database_recovery_on"},
		// Indirect checkpoints: how often dirty pages are written, hence the data writes.
		{"target_recovery_time_s", "target_recovery_time_in_seconds"},
	} {
		out[c.key] = text(r[c.column])
	}
	return out
}

// fileDirs returns the directories of the first data (ROWS) and log file; a NULL
// path is skipped.
func fileDirs(rows []map[string]any) (data, log string) {
	for _, r := range rows {
		file := text(r["physical_name"])
		if file == "" {
			continue
		}
		switch text(r["type_desc"]) {
		case "ROWS":
			if data == "" {
				data = serverDir(file)
			}
		case "LOG":
			if log == "" {
				log = serverDir(file)
			}
		}
	}
	return data, log
}

// readRows runs query and returns its rows as column name -> value, each value as
// go-mssqldb scans it into an any (nil for NULL). Reading by name makes the caller
// indifferent to columns a server adds, lacks or reorders.
func readRows(ctx context.Context, db *sql.DB, query string, args ...any) ([]map[string]any, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		r := make(map[string]any, len(cols))
		for i, c := range cols {
			r[strings.ToLower(c)] = vals[i]
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// text renders a scanned value for the result file: "" for NULL, "on"/"off" for a
// bit, decimal digits for an integer.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		return onOff(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v)
}

// tolerate drops an error that only means the server cannot describe this part of
// itself: an object or column it lacks, or a view the login may not read.
func tolerate(err error) error {
	if err == nil || missingObject(err) || permissionDenied(err) {
		return nil
	}
	return err
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
