package database

import (
	"context"
	"errors"
	"fmt"
)

// ConnectionRoom is how many more sessions a server takes (a run checks its
// connections against it before it opens them, docs/faults.md).
type ConnectionRoom struct {
	Max      int // the server's limit on sessions (max_connections)
	Reserved int // slots kept for superusers or administrators
	Used     int // sessions open now, the asking one included
}

// Free is how many more sessions an ordinary login may open.
func (r ConnectionRoom) Free() int { return max(r.Max-r.Reserved-r.Used, 0) }

// String says the figures the way a refusal quotes them.
func (r ConnectionRoom) String() string {
	s := fmt.Sprintf("max_connections %d", r.Max)
	if r.Reserved > 0 {
		s += fmt.Sprintf(" - %d reserved", r.Reserved)
	}
	return s + fmt.Sprintf(" - %d open", r.Used)
}

// ErrNoConnectionCount: the engine cannot say how many sessions its server takes.
var ErrNoConnectionCount = errors.New("the server's connection limit is not known")

// Connections asks db's server how many more sessions it takes (Engine.Connections).
func Connections(ctx context.Context, db DB) (ConnectionRoom, error) {
	e, err := Lookup(db.Name())
	if err != nil || e.Connections == nil {
		return ConnectionRoom{}, ErrNoConnectionCount
	}
	return e.Connections(ctx, db)
}
