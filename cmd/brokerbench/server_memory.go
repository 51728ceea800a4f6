package main

import (
	"github.com/spf13/cobra"
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
