// Package memcap caps the memory of a managed database server, page cache included,
// so that a database larger than the cap is read from the disks rather than from
// memory: the storage-bound regime a controller comparison needs.
//
// The server's processes run in a memory cgroup made here: cgroup v2 `memory.max`
// where the memory controller is on the unified hierarchy, v1
// `memory.limit_in_bytes` otherwise. Page cache a process faults in is charged to its
// cgroup, but pages cached before it joined stay charged elsewhere and stay cached:
// start the server inside the group (Group.Start) and evict the cluster's own files
// from the page cache (Evict) rather than dropping every cache on the machine.
//
// Life cycle, for one server:
//
//	ctl, err := memcap.Find()                 // ErrUnavailable: no controller, no permission
//	g, err := ctl.Open(memcap.NameFor("pg", dataDir), capBytes) // made, or a stale one reused
//	err = g.Start(serverCmd)                 // its children inherit the group
//	...
//	err = g.Remove()                          // after the server stopped
//
// A group left by a crash (the process was killed before Remove) is found by its
// name, derived from the data directory, and reused by the next Open; RemoveStale
// removes empty leftovers of any data directory.
//
// It also holds the byte sizes every command reads and prints (size.go: bytesize.Parse for
// the flags that take a size, bytesize.Format for what the commands say), since the cap is
// the first size a user gives.
package memcap
