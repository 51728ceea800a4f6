package dialect

import (
	"context"
	"errors"
)

// The SQL Server dialect arrives with its own issue; until then it refuses clearly.

func openSQLServer(ctx context.Context, dsn string, o Options) (DB, error) {
	return nil, errors.New("SQL Server support is not built yet")
}

type sqlserverDDL struct{ postgresDDL }

// classifySQLServer recognises go-mssqldb errors by number.
func classifySQLServer(err error) (Class, bool) { return Fatal, false }
