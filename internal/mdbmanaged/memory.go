package mdbmanaged

import (
	"fmt"
	"os"
	"strconv"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/memcap"
)

// A capped server's memory (docs/mysql.md §5). InnoDB reads its data files with
// O_DIRECT, so where the managed PostgreSQL leaves three quarters of its cap to the
// page cache, MariaDB's only cache for the data is its buffer pool: the pool takes
// what the cap leaves after the server's own memory. That memory was measured on
// MariaDB 10.11 under a cap (the cgroup's memory.stat, /proc/PID/smaps and
// performance_schema's memory summary) through quickstart's load, a 16-user run and
// check: with the settings of memorySettings it peaked at 79 MiB beside a 64 MiB
// pool, 25 connections included; with MariaDB's defaults it was 153 MiB, and the
// cap's OOM killer ended the server during check.
const (
	// serverReserveBytes is the server's memory beside the buffer pool with the 25
	// connections of a 16-user run, the measured 79 MiB and some margin:
	// performance_schema's tables (11 MiB), the redo log buffer (allocated twice),
	// Aria's page cache for internal temporary tables, the in-memory temporary tables
	// of check's queries, the threads' stacks and the malloc arenas.
	serverReserveBytes = 96 << 20
	reserveConnections = 25
	// connectionBytes is what each further connection of the workload keeps (its
	// thread, THD, network buffers as malloc holds them): about 0.4 MiB was measured
	// between 4 and 25 connections, 1 MiB leaves room for a sort or join buffer.
	connectionBytes = 1 << 20
	// largeCapReserve is what a cap above 512 MiB keeps beside the buffer pool: the
	// reserve and about 160 more connections, a 128-user run with its emulator.
	largeCapReserve = 256 << 20
)

// MinMemoryCap is the smallest --server-memory a managed MariaDB accepts: half of it
// for a 96 MiB buffer pool, half for the server's own memory and 25 connections.
const MinMemoryCap = 2 * serverReserveBytes

// CheckMemoryCap refuses a cap below MinMemoryCap (0 means no cap).
func CheckMemoryCap(capBytes int64) error {
	if capBytes != 0 && capBytes < MinMemoryCap {
		return fmt.Errorf("a memory cap of %s is below the %s the managed MariaDB needs for its buffer pool, its own memory and its connections",
			bytesize.Format(capBytes), bytesize.Format(MinMemoryCap))
	}
	return nil
}

// BufferPoolFor is the innodb_buffer_pool_size a cap implies: half of it up to a
// 512 MiB cap, so the other half holds the server's own memory and a quickstart
// run's connections; beyond, the cap less 256 MiB, and from 1 GiB three quarters of
// it, so a large cap goes to the cache as the managed PostgreSQL's goes to
// shared_buffers and the page cache, while what is left for connections still grows
// with it. Whole megabytes.
func BufferPoolFor(capBytes int64) int64 {
	return max(capBytes/2, min(capBytes-largeCapReserve, capBytes/4*3)) >> 20 << 20
}

// ConnectionsFit is how many connections a capped server holds beside its buffer
// pool and its own memory (0 for no cap).
func ConnectionsFit(capBytes int64) int {
	if capBytes <= 0 {
		return 0
	}
	return reserveConnections + int(max(capBytes-BufferPoolFor(capBytes)-serverReserveBytes, 0)/connectionBytes)
}

// CapFor is the smallest cap that holds conns connections beside its buffer pool
// (ConnectionsFit), at least MinMemoryCap.
func CapFor(conns int) int64 {
	reserve := serverReserveBytes + int64(max(conns-reserveConnections, 0))*connectionBytes
	capBytes := 2 * reserve // the pool takes half
	if reserve > largeCapReserve {
		capBytes = 4 * reserve // the pool takes three quarters
	}
	return max(capBytes, MinMemoryCap)
}

// memorySettings size a capped server's memory from the cap; none without a cap.
// Beside the buffer pool: a 4 MiB redo log buffer (MariaDB 10.8+ allocates it twice,
// and its 16 MiB default took 32 MiB), an 8 MiB Aria page cache (MariaDB puts the
// internal temporary tables that outgrow memory in Aria files, and the 128 MiB
// default filled as check's queries grouped the trade tables), no MyISAM key cache
// to speak of (brokerbench has no MyISAM table), and in-memory temporary tables of 4
// MiB rather than 16 before they move to disk (each of check's grouping queries holds
// one).
func memorySettings(capBytes int64) map[string]string {
	if capBytes <= 0 {
		return map[string]string{}
	}
	return map[string]string{
		"innodb-buffer-pool-size":    strconv.FormatInt(BufferPoolFor(capBytes), 10),
		"innodb-log-buffer-size":     strconv.Itoa(4 << 20),
		"aria-pagecache-buffer-size": strconv.Itoa(8 << 20),
		"key-buffer-size":            strconv.Itoa(1 << 20),
		"tmp-table-size":             strconv.Itoa(4 << 20),
		"max-heap-table-size":        strconv.Itoa(4 << 20),
	}
}

// serverEnv is mariadbd's environment: ours, and under a cap glibc's malloc limited
// to two arenas. By default it makes up to eight per core, and memory a connection's
// thread freed stayed in its arena: 57 MiB of a capped server's 153 MiB beside the
// pool were held by arenas; with two the server's own memory was 35 MiB less.
func serverEnv(capBytes int64) []string {
	env := os.Environ()
	if capBytes > 0 {
		env = append(env, "MALLOC_ARENA_MAX=2")
	}
	return env
}

// openMemoryGroup makes the server's memory cgroup, named after its data directory.
func (s *Server) openMemoryGroup(bufferPool string) (*memcap.Group, error) {
	ctl, err := memcap.Find()
	if err != nil {
		return nil, err
	}
	g, err := ctl.Open(memcap.NameFor("mariadb", s.DataDir), s.MemoryCap)
	if err != nil {
		return nil, err
	}
	if n, err := strconv.ParseInt(bufferPool, 10, 64); err == nil {
		bufferPool = bytesize.Format(n)
	}
	s.log("server memory capped at %s in cgroup %s (innodb_buffer_pool_size %s)", bytesize.Format(s.MemoryCap), g.Dir, bufferPool)
	return g, nil
}

// MemoryGroup is the directory of the server's memory cgroup, "" without a cap.
func (s *Server) MemoryGroup() string {
	if s.cgroup == nil {
		return ""
	}
	return s.cgroup.Dir
}
