package sqlserver

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
)

// connectionsSQL: @@MAX_CONNECTIONS (the "user connections" option, 32,767 when
// left dynamic) against the user sessions open now; counting them needs VIEW
// SERVER STATE, without which the run says it could not check.
const connectionsSQL = `SELECT @@MAX_CONNECTIONS, (SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE is_user_process = 1)`

func connections(ctx context.Context, db database.DB) (database.ConnectionRoom, error) {
	var r database.ConnectionRoom
	err := db.QueryRow(ctx, connectionsSQL).Scan(&r.Max, &r.Used)
	return r, err
}
