package session

// Globals are the options every command shares and hands to its session: which
// server (--db, or the managed one --engine, --pgdata and --server-memory start),
// where it speaks (--quiet, stdout and stderr), and the version its files record.
// cmd/brokerbench fills them from its persistent flags.
type Globals struct {
	DB     string // --db; BROKERBENCH_DB
	PGData string // --pgdata: keep the managed cluster there
	// Engine is --engine: which managed server a command starts when no --db is
	// given (session/target).
	Engine string
	// Console is where every command speaks: --quiet, stdout and stderr.
	Console

	// ServerMemory is --server-memory of pg start, load and run (session/target).
	ServerMemory string
	// Tool is brokerbench's version, recorded in the files a session writes.
	Tool string
}
