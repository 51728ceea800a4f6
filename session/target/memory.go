package target

import (
	"fmt"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/session"
)

// --server-memory: run the managed PostgreSQL in a memory cgroup so that a database
// larger than the cap is read from the disks (internal/memcap, docs/storage-bound.md).

// ParseServerMemory reads a --server-memory value for the managed server of engine
// (--engine): its bytes and whether it was given at all ("" is not given; "0" is
// given and means no cap). A cap below what that server needs to start is a usage
// error, before anything starts.
func ParseServerMemory(s, engine string) (capBytes int64, given bool, err error) {
	if s == "" {
		return 0, false, nil
	}
	v, err := bytesize.Parse(s)
	if err != nil {
		return 0, true, session.Usagef("--server-memory: %v", err)
	}
	check := pgmanaged.CheckMemoryCap
	if engine == ManagedMariaDB {
		check = mdbmanaged.CheckMemoryCap
	}
	if err := check(v); err != nil {
		return 0, true, session.Usagef("--server-memory: %v", err)
	}
	return v, true, nil
}

// ErrCapNeedsManaged is the usage error for --server-memory with a server brokerbench
// does not start.
func ErrCapNeedsManaged() error {
	return session.Usagef("--server-memory caps a managed server only (PostgreSQL, or MariaDB with --engine mariadb); for a server given with --db, cap its memory yourself " +
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
	return "a memory cap of " + bytesize.Format(b)
}

// backendBytes is about what one of the run's server backends keeps for itself once
// it has run the workload's statements (plans, catalogue caches): up to 6.6 MB was
// seen in the OOM killer's reports of a capped managed server, most stay below.
const backendBytes = 7 << 20

// otherSharedBytes is the server's shared memory beside shared_buffers that the cap
// also charges (WAL buffers, lock tables, dynamic shared memory): the OOM killer's
// report of a quickstart server showed 101 MB of shmem beside 57 MB of shared_buffers.
const otherSharedBytes = 48 << 20

// CapNeeded is the smallest cap whose three quarters (shared_buffers takes a quarter)
// hold the other shared memory and conns backends, rounded up to a megabyte.
func CapNeeded(conns int) int64 {
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
	return fmt.Sprintf("its cap of %s was too small: give --server-memory %dMiB or more, or fewer users", bytesize.Format(capBytes), need>>20)
}

// WarnTightCap says when a capped managed server's memory, after shared_buffers
// (a quarter of the cap) and the other shared memory, leaves less than the run's
// backends need: the cap's OOM killer would end backends (or the postmaster) in the
// middle of a step.
func WarnTightCap(capBytes int64, conns int, logf func(string, ...any)) {
	if capBytes <= 0 {
		return
	}
	if need := CapNeeded(conns); capBytes < need {
		logf("warning: the server's memory cap of %s leaves about %s beside shared_buffers and the server's other shared memory for %d connections' backends "+
			"(about %s each) and the page cache; the cap's OOM killer may end them mid-run: give --server-memory %s or more, or fewer users",
			bytesize.Format(capBytes), bytesize.Format(max(capBytes-capBytes/4-otherSharedBytes, 0)), conns, bytesize.Format(backendBytes),
			bytesize.Format(need))
	}
}

// WarnCapFits warns when the managed server's cap leaves too little beside its cache
// for the run's conns connections: the managed MariaDB's by its own measure
// (internal/mdbmanaged), the managed PostgreSQL's by WarnTightCap.
func WarnCapFits(t *Target, conns int, logf func(string, ...any)) {
	if t.MariaDB == nil {
		WarnTightCap(t.MemoryCap(), conns, logf)
		return
	}
	if c := t.MariaDB.MemoryCap; c > 0 && conns > mdbmanaged.ConnectionsFit(c) {
		logf("warning: the server's memory cap of %s holds about %d connections beside innodb_buffer_pool_size and MariaDB's own memory, and this run opens %d; "+
			"the cap's OOM killer may end the server mid-run: give --server-memory %s or more, or fewer users",
			bytesize.Format(c), mdbmanaged.ConnectionsFit(c), conns, bytesize.Format(mdbmanaged.CapFor(conns)))
	}
}
