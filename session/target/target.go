package target

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/session"
)

// The managed servers --engine chooses from when no --db is given.
const (
	ManagedPostgres = "postgres"
	ManagedMariaDB  = "mariadb"
)

// Target is the database a command works on: the one --db names, or a managed local
// PostgreSQL started for the command (and stopped by Close).
type Target struct {
	// DSN is what the command connects with. A managed cluster's carries its
	// password: show Shown, never DSN.
	DSN     string
	Managed *pgmanaged.Cluster
	// MariaDB is the managed MariaDB started for the command (--engine mariadb).
	MariaDB *mdbmanaged.Server
	// keep: the managed cluster was already running (pg start) and must stay up.
	keep bool
	// oomBase is the memory group's OOM kill count when the command took the server
	// (or capped it): a kill after it happened during the command.
	oomBase int64
}

// Shown names the target for messages and result files, password removed: the
// engine's own form (SQL Server: "host:port, database D, user U"), else the DSN masked.
func (t *Target) Shown() string {
	if t.Managed != nil {
		return "managed PostgreSQL in " + t.Managed.DataDir
	}
	if t.MariaDB != nil {
		return "managed MariaDB in " + t.MariaDB.DataDir
	}
	return database.Shown(t.DSN)
}

// IsManaged says whether brokerbench started (or keeps) the server.
func (t *Target) IsManaged() bool { return t.Managed != nil || t.MariaDB != nil }

// MemoryCap is the managed server's memory cap, 0 for none or a server given with --db.
func (t *Target) MemoryCap() int64 {
	switch {
	case t.Managed != nil:
		return t.Managed.MemoryCap
	case t.MariaDB != nil:
		return t.MariaDB.MemoryCap
	}
	return 0
}

// RestartWithMemoryCap restarts the managed server with a memory cap; it listens on
// a port of its own choosing afterwards, so DSN is renewed. A cap that was not asked
// for is raised to the managed MariaDB's minimum.
func (t *Target) RestartWithMemoryCap(ctx context.Context, capBytes int64, given bool) error {
	if t.MariaDB != nil {
		if !given {
			capBytes = max(capBytes, mdbmanaged.MinMemoryCap)
		}
		err := t.MariaDB.RestartWithMemoryCap(ctx, capBytes)
		t.DSN, t.oomBase = t.MariaDB.URL(mdbmanaged.Database), t.OOMKills()
		return err
	}
	err := t.Managed.RestartWithMemoryCap(ctx, capBytes)
	t.DSN, t.oomBase = t.Managed.URL("brokerbench"), t.OOMKills()
	return err
}

// OOMKills is how many processes the managed server's memory cap has had the
// kernel's OOM killer end, 0 without a cap or where the kernel does not count them.
func (t *Target) OOMKills() int64 {
	var dir string
	switch {
	case t.Managed != nil:
		dir = t.Managed.MemoryGroup()
	case t.MariaDB != nil:
		dir = t.MariaDB.MemoryGroup()
	}
	g := memcap.OpenExisting(dir)
	if g == nil {
		return 0
	}
	n, _ := g.OOMKills()
	return n
}

// HasPGEnv reports whether the user configured PostgreSQL through PG* variables, which
// pgx reads when the DSN is empty, as psql does.
func HasPGEnv() bool {
	for _, v := range []string{"PGHOST", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// Open resolves --db, BROKERBENCH_DB, the PG* variables and finally the managed
// default. logf reports the managed server's progress (nil when quiet).
func Open(ctx context.Context, g *session.Globals, logf func(string, ...any)) (*Target, error) {
	capBytes, capGiven, err := ParseServerMemory(g.ServerMemory, g.Engine)
	if err != nil {
		return nil, err
	}
	if g.DB != "" || HasPGEnv() {
		if capBytes > 0 {
			return nil, ErrCapNeedsManaged()
		}
		return &Target{DSN: g.DB}, nil
	}
	switch g.Engine {
	case ManagedPostgres:
	case ManagedMariaDB:
		return startMariaDB(ctx, g, capBytes, logf)
	default:
		return nil, session.Usagef("--engine %q: want %s or %s", g.Engine, ManagedPostgres, ManagedMariaDB)
	}
	if g.PGData != "" {
		if c, err := pgmanaged.Attach(g.PGData); err == nil {
			if err := checkAttachedCap(c, capBytes, capGiven); err != nil {
				return nil, err
			}
			if c.Unprotected() && logf != nil {
				logf("%s", UnprotectedWarning(c))
			}
			t := &Target{DSN: c.URL("brokerbench"), Managed: c, keep: true}
			t.oomBase = t.OOMKills()
			return t, nil
		}
	}
	c, err := pgmanaged.Start(ctx, pgmanaged.Options{DataDir: g.PGData, Log: logf, MemoryCap: capBytes, KeepMemoryCap: !capGiven})
	if err != nil {
		return nil, fmt.Errorf("managed PostgreSQL: %w", err)
	}
	t := &Target{Managed: c, DSN: c.URL("brokerbench")}
	t.oomBase = t.OOMKills()
	if err := ensureDatabase(ctx, c, "brokerbench"); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// startMariaDB starts a throwaway managed MariaDB (internal/mdbmanaged).
func startMariaDB(ctx context.Context, g *session.Globals, capBytes int64, logf func(string, ...any)) (*Target, error) {
	if g.PGData != "" {
		return nil, session.Usagef("--pgdata keeps a managed PostgreSQL; the managed MariaDB is always temporary")
	}
	s, err := mdbmanaged.Start(ctx, mdbmanaged.Options{Log: logf, MemoryCap: capBytes})
	if err != nil {
		return nil, fmt.Errorf("managed MariaDB: %w", err)
	}
	t := &Target{MariaDB: s, DSN: s.URL(mdbmanaged.Database)}
	t.oomBase = t.OOMKills()
	return t, nil
}

// ensureDatabase creates the managed cluster's benchmark database once.
func ensureDatabase(ctx context.Context, c *pgmanaged.Cluster, name string) error {
	db, err := database.Open(ctx, c.URL("postgres"), database.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		if _, err := db.Exec(ctx, "CREATE DATABASE "+name); err != nil {
			return fmt.Errorf("create database %s on the managed PostgreSQL: %w", name, err)
		}
	}
	return nil
}

// Close stops a managed cluster this command started (a temporary one is removed; a
// --pgdata one is kept on disk).
func (t *Target) Close() error {
	if t.MariaDB != nil {
		return t.MariaDB.Stop()
	}
	if t.Managed == nil || t.keep {
		return nil
	}
	return t.Managed.Stop()
}

// CloseAfter closes the target once the command has its outcome, cmdErr, and returns
// the command's error with a failed stop after it: a server that failed the command
// (killed, out of memory) usually fails its stop too, and the cause must be read
// first, not a "pg_ctl failed" line printed before it. A stop that fails after a
// command that succeeded is a line of its own and leaves the exit code as it was.
// Commands that open a target call it deferred, with their named error.
//
// A server process the cap's OOM killer ended during the command is the likeliest
// cause of a lost connection, and the client cannot tell it from a crash: the count
// is read before the stop removes the group and named after the command's error, or
// in a line of its own when the command survived it (its figures hold the recovery).
func (t *Target) CloseAfter(cmdErr error, stderr io.Writer) error {
	if n := t.OOMKills() - t.oomBase; n > 0 {
		oom := fmt.Errorf("the memory cap's OOM killer ended %d process(es) of the %s during the command: %s", n, t.Shown(), oomAdvice(t.MemoryCap()))
		if cmdErr == nil {
			fmt.Fprintf(stderr, "brokerbench: %s\n", oom)
		} else {
			cmdErr = fmt.Errorf("%w (%v)", cmdErr, oom)
		}
	}
	stopErr := t.Close()
	what := "stop managed PostgreSQL"
	if t.MariaDB != nil {
		what = "stop managed MariaDB"
	}
	if cmdErr == nil && stopErr != nil {
		fmt.Fprintf(stderr, "brokerbench: %s\n", session.OneLine(what+": "+stopErr.Error()))
		return nil
	}
	return followedBy(cmdErr, stopErr, what)
}

// followedBy is a command's error cause with a later failure of cleanup after it, in
// one error: the cause first, so it leads the line the user reads; errors.Is and As
// see the cause (its exit code). Either may be nil.
func followedBy(cause, later error, what string) error {
	switch {
	case later == nil:
		return cause
	case cause == nil:
		return fmt.Errorf("%s: %w", what, later)
	}
	return fmt.Errorf("%w (and then %s: %v)", cause, what, later)
}

// UnprotectedWarning says that a cluster an earlier brokerbench started lets every
// local user in, and how to close it.
func UnprotectedWarning(cl *pgmanaged.Cluster) string {
	return fmt.Sprintf("warning: the managed PostgreSQL in %s lets every local user in without a password "+
		"(started by an earlier brokerbench); `brokerbench pg start --pgdata %s` converts it", cl.DataDir, cl.DataDir)
}
