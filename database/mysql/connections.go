package mysql

import (
	"context"
	"strconv"

	"github.com/brokerbench/brokerbench/database"
)

// connections: max_connections against Threads_connected (which counts the asking
// session). A login with SUPER or CONNECTION ADMIN gets one more; the run's logins
// are not counted on it.
func connections(ctx context.Context, db database.DB) (database.ConnectionRoom, error) {
	var r database.ConnectionRoom
	if err := db.QueryRow(ctx, "SELECT @@max_connections").Scan(&r.Max); err != nil {
		return r, err
	}
	var name, value string
	if err := db.QueryRow(ctx, "SHOW GLOBAL STATUS LIKE 'Threads_connected'").Scan(&name, &value); err != nil {
		return r, err
	}
	n, err := strconv.Atoi(value)
	r.Used = n
	return r, err
}
