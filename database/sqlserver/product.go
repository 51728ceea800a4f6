package sqlserver

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// endpoint is which T-SQL server a pool talks to, found once at open. brokerbench is
// written for Microsoft's SQL Server; other servers speak T-SQL and TDS on another
// engine (docs/sqlserver.md §10) and differ in what they offer.
type endpoint struct {
	// babelfish: SERVERPROPERTY('Babelfish') is 1. It is Babelfish for PostgreSQL's
	// own property; Microsoft's server answers NULL for a property it does not know.
	babelfish        bool
	babelfishVersion string // SERVERPROPERTY('BabelfishVersion'), e.g. "4.2.0"
	// banner is the first line of @@VERSION: "Microsoft SQL Server 2022 (RTM-CU12)
	// ...", "Microsoft SQL Azure (RTM) ...", "Babelfish for PostgreSQL with SQL
	// Server Compatibility ...".
	banner string
}

const endpointQuery = `SELECT CAST(SERVERPROPERTY('Babelfish') AS int),
	CAST(SERVERPROPERTY('BabelfishVersion') AS varchar(128)),
	CAST(@@VERSION AS nvarchar(4000))`

// identify finds out which server this is and refuses one the workload cannot run on.
func (m *MSSQL) identify(ctx context.Context) error {
	e, err := readEndpoint(ctx, m.DB)
	if err != nil {
		return fmt.Errorf("SQL Server at %s: %w", m.target, err)
	}
	m.endpoint = e
	return m.checkEndpoint(ctx)
}

// readEndpoint asks the server what it is.
func readEndpoint(ctx context.Context, db *sql.DB) (endpoint, error) {
	var bf sql.NullInt64
	var version, banner sql.NullString
	if err := db.QueryRowContext(ctx, endpointQuery).Scan(&bf, &version, &banner); err != nil {
		return endpoint{}, fmt.Errorf("identify the server: %w", err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(banner.String), "\n")
	return endpoint{babelfish: bf.Valid && bf.Int64 == 1, babelfishVersion: version.String, banner: strings.TrimSpace(first)}, nil
}

// microsoft reports whether the server is Microsoft's: SQL Server, Azure SQL
// Database or a managed instance, whose @@VERSION starts "Microsoft SQL".
func (e endpoint) microsoft() bool {
	return !e.babelfish && strings.HasPrefix(e.banner, "Microsoft SQL")
}

// babelfishIsolationProbe sets the isolation levels the workload names. Babelfish
// refuses REPEATABLE READ and SERIALIZABLE unless its babelfishpg_tsql.isolation_level_*
// settings are 'pg_isolation'; without them every Trade-Order would fail, so Open
// refuses the server instead, before any command has done anything.
const babelfishIsolationProbe = `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED`

// checkEndpoint refuses a server the workload cannot run on, in one line saying what
// it lacks. Only Babelfish is known to need it.
func (m *MSSQL) checkEndpoint(ctx context.Context) error {
	if !m.endpoint.babelfish {
		return nil
	}
	if _, err := m.DB.ExecContext(ctx, babelfishIsolationProbe); err != nil {
		return fmt.Errorf("Babelfish for PostgreSQL at %s refuses REPEATABLE READ or SERIALIZABLE, which the workload runs: set babelfishpg_tsql.isolation_level_repeatable_read = 'pg_isolation' and babelfishpg_tsql.isolation_level_serializable = 'pg_isolation' in postgresql.conf and restart it (see docs/sqlserver.md §10): %w",
			m.target, err)
	}
	return nil
}

// Microsoft's supported versions (docs/sqlserver.md): SQL Server 2019 is 15.x.
const minSupportedMajor = 15

// boxedEditions are SERVERPROPERTY('EngineEdition') values of SQL Server installed
// on a machine (Personal/Desktop, Standard, Enterprise, Express), whose version says
// which release it is. Azure SQL Database (5), Synapse (6), managed instances (8)
// and the others report a fixed 12.0 whatever their features.
var boxedEditions = map[string]bool{"1": true, "2": true, "3": true, "4": true}

// describeEndpoint records a server that is not Microsoft's as what it is, and warns
// about a Microsoft server older than the supported versions.
func (m *MSSQL) describeEndpoint(ctx context.Context, info *database.ServerInfo) {
	e := m.endpoint
	switch {
	case e.babelfish:
		m.describeBabelfish(ctx, info)
	case !e.microsoft():
		// Another server that speaks T-SQL: keep what it reports, say what it is.
		info.Settings["version_string"] = e.banner
		info.Notes = append(info.Notes, fmt.Sprintf("the server is not Microsoft's SQL Server (@@VERSION: %q); its figures are not SQL Server's, and what it lacks is left out", e.banner))
	case boxedEditions[info.Settings["engine_edition"]]:
		if major, _, _ := strings.Cut(info.Version, "."); major != "" {
			if n, err := strconv.Atoi(major); err == nil && n < minSupportedMajor {
				info.Notes = append(info.Notes, fmt.Sprintf("SQL Server %s is older than the supported versions (2019 and 2022, 15.x and 16.x): statements, settings or I/O views may differ", info.Version))
			}
		}
	}
}

// BabelfishProduct is the result file's product for Babelfish for PostgreSQL.
const BabelfishProduct = "Babelfish for PostgreSQL"

// babelfishSettings are the server settings that decide how Babelfish runs the
// workload's isolation levels and locking hints; they are read where the login may
// (PostgreSQL's current_setting through the T-SQL layer) and left out where not.
var babelfishSettings = []struct{ key, guc string }{
	{"babelfish_isolation_repeatable_read", "babelfishpg_tsql.isolation_level_repeatable_read"},
	{"babelfish_isolation_serializable", "babelfishpg_tsql.isolation_level_serializable"},
	{"babelfish_table_hints", "babelfishpg_tsql.escape_hatch_table_hints"},
}

// describeBabelfish records Babelfish as itself: its own version, the SQL Server
// version and edition it emulates kept as settings, and notes on how it runs the
// workload differently from SQL Server (docs/sqlserver.md §10).
func (m *MSSQL) describeBabelfish(ctx context.Context, info *database.ServerInfo) {
	e := m.endpoint
	info.Settings["emulated_sqlserver_version"] = info.Version
	info.Settings["emulated_edition"] = info.Edition
	info.Settings["version_string"] = e.banner
	info.Product, info.Version, info.Edition = BabelfishProduct, e.babelfishVersion, ""
	info.Num = babelfishVersionNum(e.babelfishVersion)
	for _, s := range babelfishSettings {
		var v sql.NullString
		if err := m.DB.QueryRowContext(ctx, "SELECT current_setting(@p1)", s.guc).Scan(&v); err == nil {
			info.Settings[s.key] = v.String
		}
	}
	hints := info.Settings["babelfish_table_hints"]
	if hints == "" {
		hints = "ignore, its default"
	}
	notes := []string{
		fmt.Sprintf("%s %s is not Microsoft's SQL Server: it speaks T-SQL and TDS on PostgreSQL (%s); its figures are PostgreSQL's under a T-SQL layer, its recovery model and read-committed settings are emulated, and it has no I/O views (sys.dm_io_virtual_file_stats) and no size views (sys.allocation_units)",
			BabelfishProduct, e.babelfishVersion, e.banner),
		"on it REPEATABLE READ and SERIALIZABLE run as PostgreSQL's snapshot isolation (pg_isolation): a writer that meets a row changed since its snapshot fails with a serialization failure and is retried, where SQL Server's would wait for a lock; READ COMMITTED reads committed row versions, as with READ_COMMITTED_SNAPSHOT ON",
	}
	if strings.HasPrefix(hints, "ignore") {
		notes = append(notes, fmt.Sprintf("table hints are ignored (babelfishpg_tsql.escape_hatch_table_hints = %s): WITH (UPDLOCK, ROWLOCK) takes no lock, so Trade-Result's reads of the rows it then updates are not serialised as on SQL Server", hints))
	}
	info.Notes = append(info.Notes, notes...)
}

// babelfishVersionNum turns "4.2.0" into 40200 (major*10000 + minor*100 + patch).
func babelfishVersionNum(v string) int {
	parts := strings.Split(v, ".")
	if len(parts) < 3 {
		return 0
	}
	n := 0
	for _, p := range parts[:3] {
		x, err := strconv.Atoi(p)
		if err != nil || x > 99 {
			return 0
		}
		n = n*100 + x
	}
	return n
}
