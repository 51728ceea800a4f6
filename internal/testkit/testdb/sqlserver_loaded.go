package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/loader"
)

// SQLServerLoaded returns the DSN of a database holding a load at Scale and Seed.
//
// Where the server allows ALTER DATABASE ... SET, BACKUP and RESTORE (SQLServerProbe),
// each test gets a fresh copy, dropped when the test ends: the load runs once per
// server (and generator version), is kept as database bbtmpl_<key> with a COPY_ONLY
// backup next to the server's default backup path, and each test restores that
// backup under a new name, SQL Server's nearest thing to PostgreSQL's CREATE
// DATABASE ... TEMPLATE. Processes building at the same time serialise on an
// application lock.
//
// Elsewhere (Azure SQL Database, managed instances, other T-SQL servers) the load
// runs once per test package into a database its tests share: they must not depend
// on what another test of the package changed. It is not dropped when the package
// ends (Go has no hook for that); the next such load drops those older than a day.
//
// Either way the test logs one line saying which path it took.
func SQLServerLoaded(t testing.TB) string {
	t.Helper()
	admin := SQLServer(t)
	abilities := SQLServerProbe(t)
	t.Logf("SQL Server test server %s; %s", database.Shown(admin), abilities.Path())
	if !abilities.Restores() {
		return sqlserverPackageLoad(t, admin)
	}
	key := fmt.Sprintf("bbtmpl_loaded_c%d_d%d_s%d_g%d", Scale.Customers, Scale.TradeDays, Seed, loader.GeneratorVersion)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	db, err := sql.Open("sqlserver", admin)
	if err != nil {
		t.Fatalf("SQL Server template: %s", safeErr(err, admin))
	}
	defer db.Close()
	// One connection: the application lock belongs to the session.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("SQL Server template: %s", safeErr(err, admin))
	}
	defer conn.Close()
	backup, err := sqlserverTemplate(ctx, conn, admin, key)
	if err != nil {
		t.Fatalf("SQL Server template %s: %s", key, safeErr(err, admin))
	}
	name := fmt.Sprintf("bbtest_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, sqlserverSeq.Add(1))
	if err := sqlserverRestore(ctx, conn, backup, name); err != nil {
		t.Fatalf("restore %s as %s: %s", key, name, safeErr(err, admin))
	}
	t.Cleanup(func() { dropSQLServerDB(t, admin, name, abilities) })
	return SQLServerWithDatabase(admin, name)
}

// SQLServerOwnLoaded returns the DSNs of n databases, each holding a load at Scale
// and Seed that no other test shares, dropped when the test ends: restored copies
// (SQLServerLoaded) where the server can, else loads of their own, run at the same
// time. A test that compares databases from one start (the frame modes' cross-check
// in package txn) takes two.
func SQLServerOwnLoaded(t testing.TB, n int) []string {
	t.Helper()
	admin := SQLServer(t)
	abilities := SQLServerProbe(t)
	out := make([]string, n)
	if abilities.Restores() {
		for i := range out {
			out[i] = SQLServerLoaded(t)
		}
		return out
	}
	t.Logf("SQL Server test server %s; SQL Server test data: %d loads of this test's own, as the server cannot restore a copy (it refused %s)",
		database.Shown(admin), n, strings.Join(abilities.Refused, "; "))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	// The databases are created one after the other (Babelfish fails concurrent
	// CREATE DATABASE with "tuple concurrently updated"), then loaded at once.
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("bbtest_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, sqlserverSeq.Add(1))
		if err := sqlserverAdmin(ctx, admin, "CREATE DATABASE "+quoteName(names[i])); err != nil {
			t.Fatalf("create SQL Server test database: %s", safeErr(err, admin))
		}
		t.Cleanup(func() { dropSQLServerDB(t, admin, names[i], abilities) })
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = loadInto(ctx, admin, names[i])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("SQL Server load of the test's own: %s", safeErr(err, admin))
		}
	}
	return out
}

// sqlserverPackage is this process's (this test package's) loaded database on a
// server that cannot clone one.
var sqlserverPackage struct {
	mu  sync.Mutex
	dsn string
	err error
}

// sqlserverPackageLoad loads Scale and Seed once per process into a new database and
// returns its DSN to every caller.
func sqlserverPackageLoad(t testing.TB, admin string) string {
	t.Helper()
	sqlserverPackage.mu.Lock()
	defer sqlserverPackage.mu.Unlock()
	if sqlserverPackage.dsn == "" && sqlserverPackage.err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		sqlserverPackage.dsn, sqlserverPackage.err = loadPackageDB(ctx, admin)
	}
	if sqlserverPackage.err != nil {
		t.Fatalf("SQL Server per-package load: %s", safeErr(sqlserverPackage.err, admin))
	}
	return sqlserverPackage.dsn
}

func loadPackageDB(ctx context.Context, admin string) (string, error) {
	// Sweep what earlier packages left: a package's tests are long over after a day.
	if err := sqlserverAdmin(ctx, admin, `DECLARE @drop nvarchar(max);
SELECT @drop = STRING_AGG(CAST(N'DROP DATABASE ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
	FROM sys.databases WHERE name LIKE N'bbpkg[_]%' AND create_date < DATEADD(day, -1, GETDATE());
IF @drop IS NOT NULL EXEC sys.sp_executesql @drop`); err != nil {
		return "", fmt.Errorf("drop stale per-package databases: %w", err)
	}
	name := fmt.Sprintf("bbpkg_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	if err := sqlserverAdmin(ctx, admin, "CREATE DATABASE "+quoteName(name)); err != nil {
		return "", err
	}
	return loadInto(ctx, admin, name)
}

// loadInto loads Scale and Seed into the empty database name.
func loadInto(ctx context.Context, admin, name string) (string, error) {
	dsn := SQLServerWithDatabase(admin, name)
	// A minute to connect and identify the server, as testpg gives a test's pool: a
	// new database's first session is slow on a busy machine.
	db, err := database.Open(ctx, dsn, database.Options{MaxConns: loader.MaxConnections, AppName: "brokerbench-testdb", Timeout: time.Minute})
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := loader.Load(ctx, db, loader.Options{Scale: Scale, Seed: Seed, ToolVersion: "testdb"}, nil); err != nil {
		return "", fmt.Errorf("load %s: %w", name, err)
	}
	return dsn, nil
}

// sqlserverTemplate makes sure the template database and its backup exist and
// returns the backup's path.
func sqlserverTemplate(ctx context.Context, conn *sql.Conn, admin, key string) (string, error) {
	var lock int
	if err := conn.QueryRowContext(ctx, `DECLARE @r int;
EXEC @r = sys.sp_getapplock @Resource = @p1, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 900000;
SELECT @r`, key).Scan(&lock); err != nil {
		return "", err
	}
	if lock < 0 {
		return "", fmt.Errorf("sp_getapplock returned %d", lock)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "EXEC sys.sp_releaseapplock @Resource = @p1, @LockOwner = 'Session'", key)

	var dir string
	if err := conn.QueryRowContext(ctx, "SELECT CAST(SERVERPROPERTY('InstanceDefaultBackupPath') AS nvarchar(4000))").Scan(&dir); err != nil {
		return "", err
	}
	backup := joinServerPath(dir, key+".bak")
	var exists int
	if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM sys.databases WHERE name = @p1", key).Scan(&exists); err != nil {
		return "", err
	}
	if exists == 1 {
		return backup, nil
	}
	building := key + "_build"
	for _, s := range []string{
		"IF DB_ID(N'" + building + "') IS NOT NULL ALTER DATABASE " + quoteName(building) + " SET SINGLE_USER WITH ROLLBACK IMMEDIATE",
		"DROP DATABASE IF EXISTS " + quoteName(building),
		"CREATE DATABASE " + quoteName(building),
		"ALTER DATABASE " + quoteName(building) + " SET RECOVERY SIMPLE",
		"ALTER DATABASE " + quoteName(building) + " SET ALLOW_SNAPSHOT_ISOLATION ON",
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return "", fmt.Errorf("%s: %w", s, err)
		}
	}
	dsn := SQLServerWithDatabase(admin, building)
	ldb, err := database.Open(ctx, dsn, database.Options{MaxConns: loader.MaxConnections, AppName: "brokerbench-testdb", Timeout: time.Minute})
	if err != nil {
		return "", err
	}
	_, err = loader.Load(ctx, ldb, loader.Options{Scale: Scale, Seed: Seed, ToolVersion: "testdb"}, nil)
	ldb.Close()
	if err != nil {
		return "", fmt.Errorf("load: %w", err)
	}
	// The backup is taken before the rename, so a template that exists always has
	// one; COPY_ONLY keeps it out of any backup chain of the server.
	for _, s := range []string{
		"BACKUP DATABASE " + quoteName(building) + " TO DISK = N'" + strings.ReplaceAll(backup, "'", "''") + "' WITH COPY_ONLY, INIT, FORMAT",
		"ALTER DATABASE " + quoteName(building) + " SET SINGLE_USER WITH ROLLBACK IMMEDIATE",
		"ALTER DATABASE " + quoteName(building) + " MODIFY NAME = " + quoteName(key),
		"ALTER DATABASE " + quoteName(key) + " SET MULTI_USER",
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return "", fmt.Errorf("%s: %w", s, err)
		}
	}
	return backup, nil
}

// sqlserverRestore restores the template's backup as database name, its files placed
// in the server's default data and log directories.
func sqlserverRestore(ctx context.Context, conn *sql.Conn, backup, name string) error {
	var dataDir, logDir string
	if err := conn.QueryRowContext(ctx, `SELECT CAST(SERVERPROPERTY('InstanceDefaultDataPath') AS nvarchar(4000)),
		CAST(SERVERPROPERTY('InstanceDefaultLogPath') AS nvarchar(4000))`).Scan(&dataDir, &logDir); err != nil {
		return err
	}
	// RESTORE FILELISTONLY names the backup's logical files; its column set varies
	// by version, so read only the first two columns and Type.
	rows, err := conn.QueryContext(ctx, "RESTORE FILELISTONLY FROM DISK = N'"+strings.ReplaceAll(backup, "'", "''")+"'")
	if err != nil {
		return err
	}
	cols, err := rows.Columns()
	if err != nil {
		rows.Close()
		return err
	}
	var moves []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			rows.Close()
			return err
		}
		var logical, typ string
		for i, c := range cols {
			switch c {
			case "LogicalName":
				logical = fmt.Sprint(vals[i])
			case "Type":
				typ = fmt.Sprint(vals[i])
			}
		}
		target := joinServerPath(dataDir, fmt.Sprintf("%s_%d.mdf", name, len(moves)))
		if typ == "L" {
			target = joinServerPath(logDir, fmt.Sprintf("%s_%d.ldf", name, len(moves)))
		}
		moves = append(moves, "MOVE N'"+strings.ReplaceAll(logical, "'", "''")+"' TO N'"+strings.ReplaceAll(target, "'", "''")+"'")
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(moves) == 0 {
		return fmt.Errorf("backup %s lists no files", backup)
	}
	_, err = conn.ExecContext(ctx, "RESTORE DATABASE "+quoteName(name)+" FROM DISK = N'"+strings.ReplaceAll(backup, "'", "''")+
		"' WITH RECOVERY, "+strings.Join(moves, ", "))
	return err
}

// joinServerPath joins a directory the server reported (Windows or Linux) and a name.
func joinServerPath(dir, name string) string {
	sep := "/"
	if strings.Contains(dir, `\`) {
		sep = `\`
	}
	return strings.TrimRight(dir, `/\`) + sep + name
}
