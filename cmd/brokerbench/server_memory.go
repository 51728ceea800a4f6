package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/results"
)

// --server-memory: run the managed PostgreSQL in a memory cgroup so that a database
// larger than the cap is read from the disks (internal/memcap, docs/storage-bound.md).

const serverMemoryUsage = "cap the managed server's memory, page cache included (e.g. 256MB, 1GB; PostgreSQL's shared_buffers becomes a quarter of it, " +
	"MariaDB's innodb_buffer_pool_size half to three quarters of it, docs/mysql.md §5); " +
	"needs root or a delegated cgroup; 0: no cap"

// addServerMemoryFlag registers --server-memory on c, into dst.
func addServerMemoryFlag(c *cobra.Command, dst *string, usage string) {
	c.Flags().StringVar(dst, "server-memory", "", usage)
}

// parseServerMemory reads a --server-memory value for the managed server of engine
// (--engine): its bytes and whether it was given at all ("" is not given; "0" is
// given and means no cap). A cap below what that server needs to start is a usage
// error, before anything starts.
func parseServerMemory(s, engine string) (capBytes int64, given bool, err error) {
	if s == "" {
		return 0, false, nil
	}
	v, err := memcap.ParseSize(s)
	if err != nil {
		return 0, true, usagef("--server-memory: %v", err)
	}
	check := pgmanaged.CheckMemoryCap
	if engine == managedMariaDB {
		check = mdbmanaged.CheckMemoryCap
	}
	if err := check(v); err != nil {
		return 0, true, usagef("--server-memory: %v", err)
	}
	return v, true, nil
}

// errCapNeedsManaged is the usage error for --server-memory with a server brokerbench
// does not start.
func errCapNeedsManaged() error {
	return usagef("--server-memory caps a managed server only (PostgreSQL, or MariaDB with --engine mariadb); for a server given with --db, cap its memory yourself " +
		"(docs/storage-bound.md: shared_buffers or innodb_buffer_pool_size plus systemd MemoryMax= or a cgroup, SQL Server's max server memory)")
}

// checkAttachedCap refuses to use a running managed cluster with another cap than
// the one asked for: the cap is set when the server starts.
func checkAttachedCap(c *pgmanaged.Cluster, capBytes int64, given bool) error {
	if !given || c.MemoryCap == capBytes {
		return nil
	}
	return fmt.Errorf("the managed PostgreSQL in %s is running with %s; stop it (brokerbench pg stop --pgdata %s) to start it with --server-memory %s",
		c.DataDir, capWords(c.MemoryCap), c.DataDir, capWords(capBytes))
}

func capWords(b int64) string {
	if b <= 0 {
		return "no memory cap"
	}
	return "a memory cap of " + memcap.FormatSize(b)
}

// recordStorageRegime stores the server's memory cap and the database's size in the
// run, so report and compare can tell storage-bound runs from memory-resident ones.
func recordStorageRegime(ctx context.Context, run *results.Run, tgt *target, db database.DB, logf func(string, ...any)) {
	run.Database.MemoryCapBytes = tgt.memoryCap()
	size, err := database.DatabaseBytes(ctx, db)
	if err != nil {
		logf("run: the database's size is unknown (%v); compare cannot check that runs used the same data", err)
		if run.Database.Unavailable == nil {
			run.Database.Unavailable = map[string]string{}
		}
		run.Database.Unavailable[results.UnavailableSize] = err.Error()
		return
	}
	run.Database.SizeBytes = size
	if run.Database.MemoryCapBytes > 0 {
		logf("run: database %s, server memory capped at %s", memcap.FormatSize(size), memcap.FormatSize(run.Database.MemoryCapBytes))
	}
}

// backendBytes is about what one of the run's server backends keeps for itself once
// it has run the workload's statements (plans, catalogue caches): up to 6.6 MB was
// seen in the OOM killer's reports of a capped managed server, most stay below.
const backendBytes = 7 << 20

// otherSharedBytes is the server's shared memory beside shared_buffers that the cap
// also charges (WAL buffers, lock tables, dynamic shared memory): the OOM killer's
// report of a quickstart server showed 101 MB of shmem beside 57 MB of shared_buffers.
const otherSharedBytes = 48 << 20

// capNeeded is the smallest cap whose three quarters (shared_buffers takes a quarter)
// hold the other shared memory and conns backends, rounded up to a megabyte.
func capNeeded(conns int) int64 {
	need := (int64(conns)*backendBytes + otherSharedBytes) * 4 / 3
	return (need + 1<<20 - 1) >> 20 << 20
}

// oomAdvice is the advice after the cap's OOM killer ended a server process: a cap
// above the one that was too small, by half of it and at least 64 MiB, rounded up to
// 16 MiB, written as --server-memory reads it. "More than" the current cap was no
// figure at all, and shown in MiB it read as less than the 192MB the user had typed.
func oomAdvice(capBytes int64) string {
	const step = 16 << 20
	need := capBytes + max(capBytes/2, 64<<20)
	need = (need + step - 1) / step * step
	return fmt.Sprintf("its cap of %s was too small: give --server-memory %dMiB or more, or fewer users", memcap.FormatSize(capBytes), need>>20)
}

// warnTightCap says when a capped managed server's memory, after shared_buffers
// (a quarter of the cap) and the other shared memory, leaves less than the run's
// backends need: the cap's OOM killer would end backends (or the postmaster) in the
// middle of a step.
func warnTightCap(capBytes int64, conns int, logf func(string, ...any)) {
	if capBytes <= 0 {
		return
	}
	if need := capNeeded(conns); capBytes < need {
		logf("warning: the server's memory cap of %s leaves about %s beside shared_buffers and the server's other shared memory for %d connections' backends "+
			"(about %s each) and the page cache; the cap's OOM killer may end them mid-run: give --server-memory %s or more, or fewer users",
			memcap.FormatSize(capBytes), memcap.FormatSize(max(capBytes-capBytes/4-otherSharedBytes, 0)), conns, memcap.FormatSize(backendBytes),
			memcap.FormatSize(need))
	}
}

// warnCapFits warns when the managed server's cap leaves too little beside its cache
// for the run's conns connections: the managed MariaDB's by its own measure
// (internal/mdbmanaged), the managed PostgreSQL's by warnTightCap.
func warnCapFits(t *target, conns int, logf func(string, ...any)) {
	if t.MariaDB == nil {
		warnTightCap(t.memoryCap(), conns, logf)
		return
	}
	if c := t.MariaDB.MemoryCap; c > 0 && conns > mdbmanaged.ConnectionsFit(c) {
		logf("warning: the server's memory cap of %s holds about %d connections beside innodb_buffer_pool_size and MariaDB's own memory, and this run opens %d; "+
			"the cap's OOM killer may end the server mid-run: give --server-memory %s or more, or fewer users",
			memcap.FormatSize(c), mdbmanaged.ConnectionsFit(c), conns, memcap.FormatSize(mdbmanaged.CapFor(conns)))
	}
}

// quickstartCap is the cap quickstart puts on its managed server once the database
// is loaded: half the database, so it is about twice the memory and most reads go to
// the disks; at least the managed server's minimum, and at least what the run's conns
// backends need beside shared_buffers (a tighter cap had the OOM killer end a backend
// at the end of quickstart's 16-user step).
func quickstartCap(dbBytes int64, conns int) int64 {
	return max(dbBytes/2, pgmanaged.MinMemoryCap, capNeeded(conns))
}

// runConnections is how many server connections a run of at most maxUsers users
// holds: the users, the market emulator's workers, the timer and the run's own
// (runOwnConnections), as the run's connection check and its cap warning count them.
func runConnections(maxUsers int) int {
	return maxUsers + driver.MEEWorkersFor(maxUsers) + 1 + runOwnConnections
}

// capQuickstartServer restarts quickstart's managed server with its cap: the one
// given, or half the loaded database. A cap that was not asked for but cannot be
// applied (no memory controller, not root) is a warning: quickstart still runs, and
// its summary then says how much of the reads the disks served.
func capQuickstartServer(ctx context.Context, tgt *target, asked int64, given bool, conns int, say func(string, ...any)) error {
	if !tgt.managed() {
		return nil // a cap for a server we do not manage was refused before the load
	}
	capBytes := asked
	if !given {
		db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench quickstart"})
		if err != nil {
			return err
		}
		size, err := database.DatabaseBytes(ctx, db)
		db.Close()
		if err != nil {
			return err
		}
		capBytes = quickstartCap(size, conns)
		if tgt.MariaDB != nil {
			capBytes = max(size/2, mdbmanaged.CapFor(conns))
		}
		say("capping the server's memory at %s for a %s database, so most reads go to the disks (--server-memory 0 turns this off)",
			memcap.FormatSize(capBytes), memcap.FormatSize(size))
	}
	if capBytes == tgt.memoryCap() {
		return nil
	}
	err := tgt.restartWithMemoryCap(ctx, capBytes, given)
	if err != nil && !given && (errors.Is(err, pgmanaged.ErrMemoryCap) || errors.Is(err, pgmanaged.ErrCapTooSmall)) {
		say("cannot cap the server's memory (%v); running uncapped, so the database will likely be read from memory", err)
		return nil
	}
	return err
}

// diskReadSummary is quickstart's closing line on how much of the reads came from
// the disks.
func diskReadSummary(r *results.Run) string {
	s := results.SummarizeDiskReads(r)
	if !s.HasReadsPerTxn && !s.HasHitRatio {
		return "Reads from disk: unknown (no storage figures for this run)."
	}
	var parts []string
	if s.HasReadsPerTxn {
		parts = append(parts, fmt.Sprintf("%.1f disk reads per transaction", s.ReadsPerTxn))
	}
	if s.HasHitRatio {
		parts = append(parts, fmt.Sprintf("%.1f %% of page reads from the disk or the OS cache (cache hit ratio %.1f %%)", (1-s.HitRatio)*100, s.HitRatio*100))
	}
	line := "Reads from disk: " + joinAnd(parts)
	if d := r.Database; d.MemoryCapBytes > 0 && d.SizeBytes > 0 {
		line += fmt.Sprintf(", with the server's memory capped at %s for a %s database", memcap.FormatSize(d.MemoryCapBytes), memcap.FormatSize(d.SizeBytes))
	}
	line += "."
	if s.MemoryResidentSteps > 0 {
		line += fmt.Sprintf(" %d of %d steps were memory-resident: the disks served almost no reads; %s.", s.MemoryResidentSteps, s.Steps, results.MemoryResidentAdvice)
	}
	return line
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return parts[0] + " and " + parts[1]
}
