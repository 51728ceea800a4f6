package postgres

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
)

// connectionsSQL: the limit, the slots kept for superusers (and, from PostgreSQL 16,
// for roles with pg_use_reserved_connections) and the client sessions open now.
const connectionsSQL = `SELECT current_setting('max_connections')::int,
  current_setting('superuser_reserved_connections')::int + COALESCE(current_setting('reserved_connections', true)::int, 0),
  (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend')`

func connections(ctx context.Context, db database.DB) (database.ConnectionRoom, error) {
	var r database.ConnectionRoom
	err := db.QueryRow(ctx, connectionsSQL).Scan(&r.Max, &r.Reserved, &r.Used)
	return r, err
}
