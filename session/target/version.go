package target

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

// SupportedServer describes db's server, and refuses in one line a server older than
// the versions its engine supports (the README states them): run and load call it
// before they touch anything.
func SupportedServer(ctx context.Context, db database.DB) (database.ServerInfo, error) {
	info, err := db.Server(ctx)
	if err != nil {
		return info, fmt.Errorf("describe the server at %s: %w", db.Target(), err)
	}
	e, err := database.Of(db)
	if err != nil {
		return info, err
	}
	return info, e.CheckVersion(info)
}
