package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/brokerbench/brokerbench/database"
)

// pgIOStats is PostgreSQL's reader over one pgx connection.
type pgIOStats struct {
	conn  *pgx.Conn
	num   int
	query string
}

var _ database.IOStatsReader = (*pgIOStats)(nil)

// OpenIOStats opens one dedicated connection with the pool's settings and picks the
// views by server version.
func (p *PG) OpenIOStats(ctx context.Context) (database.IOStatsReader, error) {
	cfg := p.Pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = "brokerbench-iostat"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("I/O statistics connection to %s: %w", p.target, safeConnErr(err))
	}
	var num string
	if err := conn.QueryRow(ctx, "SELECT current_setting('server_version_num')").Scan(&num); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("I/O statistics: server version: %w", err)
	}
	n, _ := strconv.Atoi(num)
	r := &pgIOStats{conn: conn, num: n, query: pgIOQuery(n)}
	// Prove the query works now (permissions, views), so the sampler can fall back at
	// start instead of failing at every sample.
	if _, err := r.ReadIO(ctx); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return r, nil
}

func (r *pgIOStats) Source() string {
	if r.num >= 160000 {
		return "pg_stat_io"
	}
	return "pg_stat"
}

// ServerProcess returns the process id of this connection's backend and the host it
// connected to (a path for a unix socket), so the I/O sampler can check that the
// server runs on this machine before it measures local disks.
func (r *pgIOStats) ServerProcess() (pid int, host string) {
	return int(r.conn.PgConn().PID()), r.conn.Config().Host
}

func (r *pgIOStats) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return r.conn.Close(ctx)
}

// ReadIO runs the one statement of this version. It runs in autocommit, so with the
// default stats_fetch_consistency = cache every reading is a fresh snapshot.
func (r *pgIOStats) ReadIO(ctx context.Context) (database.IOCounters, error) {
	var c database.IOCounters
	var d, w database.IOGroup
	var trackIO, trackWAL bool
	var walBytes *int64
	var reset1, reset2 *time.Time
	err := r.conn.QueryRow(ctx, r.query).Scan(&c.At,
		&d.ReadOps, &d.ReadBytes, &d.ReadTimeMS, &d.WriteOps, &d.WriteBytes, &d.WriteTimeMS,
		&w.WriteOps, &w.WriteBytes, &w.WriteTimeMS, &walBytes,
		&c.Commits, &c.Rollbacks, &c.Checkpoints, &reset1, &reset2, &trackIO, &trackWAL)
	if err != nil {
		return c, fmt.Errorf("read %s: %w", r.Source(), err)
	}
	d.Name, w.Name = "data", "wal"
	d.HasReadTime = trackIO
	// pg_stat_database's blk_write_time covers backend writes only, not the
	// checkpointer's or the bgwriter's, so the fallback has no write latency.
	d.HasWriteTime = trackIO && r.num >= 160000
	w.HasWriteTime = trackWAL
	// WAL rows: pg_stat_wal.wal_write (≤17) or pg_stat_io object 'wal' (18+); before 14
	// there is neither, only the volume.
	c.Groups = []database.IOGroup{d}
	if r.num >= 140000 {
		c.Groups = append(c.Groups, w)
	}
	if walBytes != nil {
		c.WALBytes, c.HasWAL = *walBytes, true
	}
	var parts []string
	for _, t := range []*time.Time{reset1, reset2} {
		if t != nil {
			parts = append(parts, t.UTC().Format(time.RFC3339Nano))
		}
	}
	c.Reset = strings.Join(parts, ",")
	return c, nil
}

// pgIOQuery returns the statement for server_version_num num. Every variant returns
// the same columns:
//
//	now, data reads, read bytes, read ms, writes, write bytes, write ms,
//	wal writes, wal write bytes, wal write+sync ms, wal bytes generated,
//	commits, rollbacks, checkpoints, reset1, reset2, track_io_timing, track_wal_io_timing
func pgIOQuery(num int) string {
	xact := `(SELECT coalesce(sum(xact_commit), 0)::int8 AS commits, coalesce(sum(xact_rollback), 0)::int8 AS rollbacks,
	         coalesce(sum(blks_read), 0)::int8 AS blks_read, coalesce(sum(blk_read_time), 0)::float8 AS blk_read_time
	  FROM pg_stat_database) x`
	trackWAL := "current_setting('track_wal_io_timing')::bool"
	if num < 140000 {
		trackWAL = "false"
	}
	settings := "current_setting('track_io_timing')::bool, " + trackWAL
	switch {
	case num >= 180000:
		// 18: byte columns instead of op_bytes; WAL I/O moved into pg_stat_io (object
		// 'wal'); pg_stat_wal keeps only the volume; checkpoints in pg_stat_checkpointer.
		return `SELECT clock_timestamp(),
	d.reads, d.read_bytes, d.read_time, d.writes, d.write_bytes, d.write_time,
	w.writes, w.write_bytes, w.write_time, pw.wal_bytes::int8,
	x.commits, x.rollbacks, (c.num_timed + c.num_requested)::int8, pw.stats_reset, c.stats_reset, ` + settings + `
FROM (SELECT coalesce(sum(reads), 0)::int8 AS reads, coalesce(sum(read_bytes), 0)::int8 AS read_bytes,
	     coalesce(sum(read_time), 0)::float8 AS read_time,
	     coalesce(sum(writes), 0)::int8 + coalesce(sum(extends), 0)::int8 AS writes,
	     coalesce(sum(write_bytes), 0)::int8 + coalesce(sum(extend_bytes), 0)::int8 AS write_bytes,
	     coalesce(sum(write_time), 0)::float8 + coalesce(sum(extend_time), 0)::float8 AS write_time
	  FROM pg_stat_io WHERE object IN ('relation', 'temp relation')) d,
	(SELECT coalesce(sum(writes), 0)::int8 AS writes, coalesce(sum(write_bytes), 0)::int8 AS write_bytes,
	     coalesce(sum(write_time), 0)::float8 + coalesce(sum(fsync_time), 0)::float8 AS write_time
	  FROM pg_stat_io WHERE object = 'wal') w,
	pg_stat_wal pw, pg_stat_checkpointer c, ` + xact
	case num >= 160000:
		ckpt := "pg_stat_bgwriter c"
		ckptCount := "(c.checkpoints_timed + c.checkpoints_req)::int8"
		if num >= 170000 {
			ckpt = "pg_stat_checkpointer c"
			ckptCount = "(c.num_timed + c.num_requested)::int8"
		}
		return `SELECT clock_timestamp(),
	d.reads, d.read_bytes, d.read_time, d.writes, d.write_bytes, d.write_time,
	pw.wal_write, pw.wal_bytes::int8, pw.wal_write_time + pw.wal_sync_time, pw.wal_bytes::int8,
	x.commits, x.rollbacks, ` + ckptCount + `, pw.stats_reset, c.stats_reset, ` + settings + `
FROM (SELECT coalesce(sum(reads), 0)::int8 AS reads, coalesce(sum(reads * op_bytes), 0)::int8 AS read_bytes,
	     coalesce(sum(read_time), 0)::float8 AS read_time,
	     coalesce(sum(writes), 0)::int8 + coalesce(sum(extends), 0)::int8 AS writes,
	     coalesce(sum((coalesce(writes, 0) + coalesce(extends, 0)) * op_bytes), 0)::int8 AS write_bytes,
	     coalesce(sum(write_time), 0)::float8 + coalesce(sum(extend_time), 0)::float8 AS write_time
	  FROM pg_stat_io WHERE object IN ('relation', 'temp relation')) d,
	pg_stat_wal pw, ` + ckpt + `, ` + xact
	case num >= 140000:
		return `SELECT clock_timestamp(),
	x.blks_read, x.blks_read * current_setting('block_size')::int8, x.blk_read_time,
	(b.buffers_checkpoint + b.buffers_clean + b.buffers_backend)::int8,
	(b.buffers_checkpoint + b.buffers_clean + b.buffers_backend)::int8 * current_setting('block_size')::int8, 0::float8,
	pw.wal_write, pw.wal_bytes::int8, pw.wal_write_time + pw.wal_sync_time, pw.wal_bytes::int8,
	x.commits, x.rollbacks, (b.checkpoints_timed + b.checkpoints_req)::int8, pw.stats_reset, b.stats_reset, ` + settings + `
FROM pg_stat_bgwriter b, pg_stat_wal pw, ` + xact
	default:
		// Before 14 there is no pg_stat_wal: the WAL volume is the WAL position.
		return `SELECT clock_timestamp(),
	x.blks_read, x.blks_read * current_setting('block_size')::int8, x.blk_read_time,
	(b.buffers_checkpoint + b.buffers_clean + b.buffers_backend)::int8,
	(b.buffers_checkpoint + b.buffers_clean + b.buffers_backend)::int8 * current_setting('block_size')::int8, 0::float8,
	0::int8, 0::int8, 0::float8, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::int8,
	x.commits, x.rollbacks, (b.checkpoints_timed + b.checkpoints_req)::int8, NULL::timestamptz, b.stats_reset, ` + settings + `
FROM pg_stat_bgwriter b, ` + xact
	}
}
