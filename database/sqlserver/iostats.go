package sqlserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// IOSource is the result file's name for SQL Server's own I/O counters.
const IOSource = "sqlserver_file_stats"

// sqlserverIOQuery reads sys.dm_io_virtual_file_stats for the benchmark database and
// tempdb (the row-version store of snapshot and RCSI reads lives there), one row per
// file with its type from sys.database_files. sys.database_files is used instead of
// sys.master_files because a login sees every row of sys.master_files only with
// CREATE DATABASE, ALTER ANY DATABASE or VIEW ANY DEFINITION, while the database's
// (and tempdb's) own catalog is visible to any user of it. The DMF itself needs VIEW
// SERVER STATE (SQL Server 2019) or VIEW SERVER PERFORMANCE STATE (2022 and later).
const sqlserverIOQuery = `SELECT SYSUTCDATETIME(),
	CAST(f.database_id AS int), CAST(f.file_id AS int), df.type_desc,
	f.num_of_reads, f.num_of_bytes_read, f.io_stall_read_ms,
	f.num_of_writes, f.num_of_bytes_written, f.io_stall_write_ms
FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) AS f
JOIN sys.database_files AS df ON df.file_id = f.file_id
UNION ALL
SELECT SYSUTCDATETIME(),
	CAST(f.database_id AS int), CAST(f.file_id AS int), df.type_desc,
	f.num_of_reads, f.num_of_bytes_read, f.io_stall_read_ms,
	f.num_of_writes, f.num_of_bytes_written, f.io_stall_write_ms
FROM sys.dm_io_virtual_file_stats(2, NULL) AS f
JOIN tempdb.sys.database_files AS df ON df.file_id = f.file_id
WHERE DB_ID() <> 2`

// sqlserverEpochQuery reads sqlserver_start_time, which marks the counters' epoch:
// they start at zero with the service. It is its own query so that a server without
// sys.dm_os_sys_info still reports its file counters (with an empty epoch).
const sqlserverEpochQuery = `SELECT CONVERT(varchar(33), sqlserver_start_time, 126) FROM sys.dm_os_sys_info`

// sqlserverFileRow is one row of sqlserverIOQuery.
type sqlserverFileRow struct {
	DatabaseID, FileID       int
	TypeDesc                 string // ROWS, LOG, FILESTREAM, FULLTEXT
	Reads, ReadBytes, ReadMS int64
	Writes, WriteBytes       int64
	WriteMS                  int64
}

const tempdbID = 2

// sqlserverIOCounters maps file rows to the sampler's roles: every ROWS file (the
// benchmark database's and tempdb's) to "data", every LOG file to "wal". FILESTREAM
// and full-text files are not part of the workload and are left out. The WAL volume
// is the benchmark database's log bytes written: SQL Server writes each log block
// once, so that is the log it generated, as pg_stat_wal.wal_bytes is for PostgreSQL.
func sqlserverIOCounters(rows []sqlserverFileRow, at time.Time, epoch string) database.IOCounters {
	data := database.IOGroup{Name: "data", HasReadTime: true, HasWriteTime: true}
	wal := database.IOGroup{Name: "wal", HasReadTime: true, HasWriteTime: true}
	c := database.IOCounters{At: at, Reset: epoch}
	for _, r := range rows {
		var g *database.IOGroup
		switch r.TypeDesc {
		case "ROWS":
			g = &data
		case "LOG":
			g = &wal
			if r.DatabaseID != tempdbID {
				c.WALBytes += r.WriteBytes
				c.HasWAL = true
			}
		default:
			continue
		}
		g.ReadOps += r.Reads
		g.ReadBytes += r.ReadBytes
		g.ReadTimeMS += float64(r.ReadMS)
		g.WriteOps += r.Writes
		g.WriteBytes += r.WriteBytes
		g.WriteTimeMS += float64(r.WriteMS)
	}
	c.Groups = []database.IOGroup{data, wal}
	return c
}

// msIOStats reads the counters over its own one-connection pool.
type msIOStats struct {
	db   *sql.DB
	host string
	// noEpoch is set once the server has shown it cannot report its start time.
	noEpoch bool
}

var _ database.IOStatsReader = (*msIOStats)(nil)

// OpenIOStats opens a dedicated connection (not one of the workload's) and proves the
// query works, so that a missing permission is reported once at start and the
// sampler falls back to other sources.
func (m *MSSQL) OpenIOStats(ctx context.Context) (database.IOStatsReader, error) {
	dsn := withAppName(m.dsn, "brokerbench-iostat")
	conn, err := newDeadlineConnector(dsn, m.connectTimeout)
	if err != nil {
		return nil, fmt.Errorf("I/O statistics connection to %s: %s", m.target, scrubSecret(err.Error(), "", m.dsn))
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	r := &msIOStats{db: db, host: m.host}
	if _, err := r.ReadIO(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return r, nil
}

func withAppName(dsn, app string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "app name") || strings.EqualFold(k, "app") || strings.EqualFold(k, "application name") {
			q.Del(k)
		}
	}
	q.Set("app name", app)
	u.RawQuery = q.Encode()
	return u.String()
}

func (r *msIOStats) Source() string { return IOSource }

// Note says how to read these figures, for a sampler that asks its reader (the
// PostgreSQL wording about page-cache hits does not apply: SQL Server bypasses the
// OS cache).
func (r *msIOStats) Note() string {
	return "SQL Server's own per-file I/O counters (benchmark database and tempdb): unbuffered I/O, close to what the devices saw; latency as SQL Server waited for it"
}

// ServerProcess lets the I/O sampler decide whether the server runs on this host
// before it measures local disks for the server's data directory. It offers the host
// only: the sampler's process test compares a process's working directory with the
// data directory, which holds for a PostgreSQL backend but not for sqlservr, so a pid
// would make a local SQL Server look remote. With no pid the sampler takes localhost
// and loopback addresses as local, and a data directory that does not exist here
// (a container's /var/opt/mssql/data) then leaves the DMV as the source.
func (r *msIOStats) ServerProcess() (pid int, host string) { return 0, r.host }
func (r *msIOStats) Close() error                          { return r.db.Close() }

func (r *msIOStats) ReadIO(ctx context.Context) (database.IOCounters, error) {
	epoch, err := r.epoch(ctx)
	if err != nil {
		return database.IOCounters{}, sqlserverIOError(err)
	}
	rows, err := r.db.QueryContext(ctx, sqlserverIOQuery)
	if err != nil {
		return database.IOCounters{}, sqlserverIOError(err)
	}
	defer rows.Close()
	var files []sqlserverFileRow
	var at time.Time
	for rows.Next() {
		var f sqlserverFileRow
		if err := rows.Scan(&at, &f.DatabaseID, &f.FileID, &f.TypeDesc,
			&f.Reads, &f.ReadBytes, &f.ReadMS, &f.Writes, &f.WriteBytes, &f.WriteMS); err != nil {
			return database.IOCounters{}, sqlserverIOError(err)
		}
		files = append(files, f)
	}
	if err := rows.Err(); err != nil {
		return database.IOCounters{}, sqlserverIOError(err)
	}
	if len(files) == 0 {
		return database.IOCounters{}, fmt.Errorf("read %s: no database files visible", IOSource)
	}
	return sqlserverIOCounters(files, at.UTC(), epoch), nil
}

// epoch returns the service's start time, or "" when the server cannot say (a NULL,
// a missing view, or a view the login may not read; by number or by Babelfish's
// meaning, errnum.go).
func (r *msIOStats) epoch(ctx context.Context) (string, error) {
	if r.noEpoch {
		return "", nil
	}
	var epoch sql.NullString
	err := r.db.QueryRowContext(ctx, sqlserverEpochQuery).Scan(&epoch)
	switch {
	case err == nil:
		return epoch.String, nil
	case missingObject(err) || permissionDenied(err) || errors.Is(err, sql.ErrNoRows):
		r.noEpoch = true
		return "", nil
	}
	return "", err
}

// sqlserverIOError names the permission when the server refuses the DMVs, and marks
// that error database.ErrPermission (told by error number, or by Babelfish's
// PostgreSQL meaning) so the sampler can tell a missing grant from a broken query.
// A server without the views (a T-SQL server that is not Microsoft's) gets an error
// that says so, marked database.ErrUnavailable.
func sqlserverIOError(err error) error {
	switch conditionOf(err) {
	case condPermission:
		return &markedError{fmt.Errorf("read %s: sys.dm_io_virtual_file_stats needs VIEW SERVER STATE (SQL Server 2019) or VIEW SERVER PERFORMANCE STATE (2022 and later), e.g. GRANT VIEW SERVER PERFORMANCE STATE TO [login] (see docs/sqlserver.md): %w",
			IOSource, err), []error{database.ErrPermission, database.ErrUnavailable}}
	case condMissing:
		return fmt.Errorf("read %s: %w", IOSource, unavailable(err, "the I/O view sys.dm_io_virtual_file_stats"))
	}
	return fmt.Errorf("read %s: %w", IOSource, err)
}
