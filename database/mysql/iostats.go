package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// IOSource is the result file's name for InnoDB's own file I/O counters.
const IOSource = "performance_schema"

// fileIOQuery reads performance_schema's file I/O per kind of InnoDB file: the data
// files (the system tablespace and every table's .ibd, and MySQL's doublewrite files,
// which MariaDB keeps in the system tablespace) and the redo log. The
// by-event-name summary keeps the counts of files since closed or dropped, where the
// by-instance one forgets them. Timers are in picoseconds.
const fileIOQuery = `SELECT event_name, count_read, sum_number_of_bytes_read, sum_timer_read,
	count_write, sum_number_of_bytes_write, sum_timer_write
FROM performance_schema.file_summary_by_event_name
WHERE event_name IN ('wait/io/file/innodb/innodb_data_file', 'wait/io/file/innodb/innodb_dblwr_file', 'wait/io/file/innodb/innodb_log_file')`

const (
	dataFileEvent = "wait/io/file/innodb/innodb_data_file"
	dblwrEvent    = "wait/io/file/innodb/innodb_dblwr_file" // MySQL 8.0.20+
	logFileEvent  = "wait/io/file/innodb/innodb_log_file"
)

// statusQuery reads the counters beside the files': the redo log's position (its
// growth is the log volume written: MariaDB's Innodb_lsn_current, MySQL's
// Innodb_redo_log_current_lsn since 8.0.30; a server has one of them), commits and
// rollbacks, and the buffer pool's page requests and the reads they needed.
const statusQuery = `SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_lsn_current', 'Innodb_redo_log_current_lsn', 'Com_commit', 'Com_rollback',
	'Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads', 'Innodb_log_writes', 'Innodb_os_log_written')`

type myIOStats struct {
	db   *sql.DB
	host string
}

var (
	_ database.IOStatsReader    = (*myIOStats)(nil)
	_ database.CacheStatsReader = (*myIOStats)(nil)
	_ database.IOStatsOpener    = (*DB)(nil)
)

// OpenIOStats opens a connection of its own (not one of the workload's) and proves
// the views answer, so a server without performance_schema is reported once, at
// start, and the sampler falls back to the disks' counters.
func (m *DB) OpenIOStats(ctx context.Context) (database.IOStatsReader, error) {
	cfg := m.cfg.Clone()
	cfg.ConnectionAttributes = "program_name:brokerbench-iostat"
	conn, err := driver.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("I/O statistics connection to %s: %s", m.target, database.ScrubSecret(err.Error(), cfg.Passwd))
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	r := &myIOStats{db: db, host: cfg.Addr}
	if cfg.Net != "unix" {
		if h, _, err := net.SplitHostPort(cfg.Addr); err == nil {
			r.host = h
		}
	}
	if _, err := r.ReadIO(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return r, nil
}

func (r *myIOStats) Source() string { return IOSource }

// Note says how to read these figures.
func (r *myIOStats) Note() string {
	return "InnoDB's file I/O from performance_schema (data files and redo log): reads and writes InnoDB asked of the kernel; " +
		"with O_DIRECT (innodb_flush_method) close to what the devices saw, otherwise through the page cache"
}

// ServerProcess offers the host only (a socket path, or an address): the sampler
// then takes a socket or loopback address as this host.
func (r *myIOStats) ServerProcess() (pid int, host string) { return 0, r.host }
func (r *myIOStats) Close() error                          { return r.db.Close() }

func (r *myIOStats) ReadIO(ctx context.Context) (database.IOCounters, error) {
	var c database.IOCounters
	if err := r.db.QueryRowContext(ctx, "SELECT UTC_TIMESTAMP(6)").Scan(&c.At); err != nil {
		return c, err
	}
	rows, err := r.db.QueryContext(ctx, fileIOQuery)
	if err != nil {
		return c, fmt.Errorf("read %s: %w", IOSource, unavailable(err, "performance_schema.file_summary_by_event_name"))
	}
	defer rows.Close()
	data := database.IOGroup{Name: "data", HasReadTime: true, HasWriteTime: true}
	wal := database.IOGroup{Name: "wal", HasReadTime: true, HasWriteTime: true}
	seen := 0
	for rows.Next() {
		var event string
		var g database.IOGroup
		var readPS, writePS int64
		if err := rows.Scan(&event, &g.ReadOps, &g.ReadBytes, &readPS, &g.WriteOps, &g.WriteBytes, &writePS); err != nil {
			return c, err
		}
		g.ReadTimeMS, g.WriteTimeMS = float64(readPS)/1e9, float64(writePS)/1e9
		switch event {
		case dataFileEvent, dblwrEvent:
			add(&data, g)
		case logFileEvent:
			add(&wal, g)
		}
		seen++
	}
	if err := rows.Err(); err != nil {
		return c, err
	}
	if seen == 0 {
		return c, fmt.Errorf("read %s: %w", IOSource, &markedError{err: errors.New("no InnoDB file events"),
			what:  "performance_schema is off or its file instruments are (start the server with --performance-schema=ON)",
			marks: []error{database.ErrUnavailable}})
	}
	c.Groups = []database.IOGroup{data, wal}
	st, err := r.status(ctx)
	if err != nil {
		return c, err
	}
	if wal.WriteOps == 0 {
		// MariaDB 10.8+ writes its redo log outside performance_schema's file
		// instruments: its own counters give the writes and bytes, without times.
		wal = database.IOGroup{Name: "wal", WriteOps: st["Innodb_log_writes"], WriteBytes: st["Innodb_os_log_written"]}
		c.Groups[1] = wal
	}
	for _, name := range []string{"Innodb_lsn_current", "Innodb_redo_log_current_lsn"} {
		if lsn, ok := st[name]; ok {
			c.WALBytes, c.HasWAL = lsn, true
		}
	}
	c.Commits, c.Rollbacks = st["Com_commit"], st["Com_rollback"]
	return c, nil
}

func add(to *database.IOGroup, g database.IOGroup) {
	to.ReadOps += g.ReadOps
	to.ReadBytes += g.ReadBytes
	to.ReadTimeMS += g.ReadTimeMS
	to.WriteOps += g.WriteOps
	to.WriteBytes += g.WriteBytes
	to.WriteTimeMS += g.WriteTimeMS
}

func (r *myIOStats) status(ctx context.Context) (map[string]int64, error) {
	rows, err := r.db.QueryContext(ctx, statusQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var v int64
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// ReadCache reads the buffer pool's logical page requests and the ones that had to
// read a page (from the page cache or the disk): every other request was a hit.
func (r *myIOStats) ReadCache(ctx context.Context) (database.CacheCounters, error) {
	st, err := r.status(ctx)
	if err != nil {
		return database.CacheCounters{}, err
	}
	req, okQ := st["Innodb_buffer_pool_read_requests"]
	reads, okR := st["Innodb_buffer_pool_reads"]
	if !okQ || !okR {
		return database.CacheCounters{}, fmt.Errorf("read %s cache counters: the server lacks Innodb_buffer_pool_read_requests or Innodb_buffer_pool_reads", IOSource)
	}
	return database.CacheCounters{Hits: max(req-reads, 0), Reads: reads}, nil
}
