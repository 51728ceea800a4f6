package testdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database/sqlserver"
)

// SQLServerAbilities is what the test server lets the harness do. Microsoft's SQL
// Server allows everything to a sysadmin; Azure SQL Database, managed instances and
// other servers that speak T-SQL refuse some of it.
type SQLServerAbilities struct {
	// AlterSet: ALTER DATABASE ... SET (recovery model, snapshot isolation, single
	// user) works on a database the login created.
	AlterSet bool
	// BackupRestore: BACKUP DATABASE ... TO DISK into the default backup path and
	// RESTORE from it work, so a loaded template can be cloned per test.
	BackupRestore bool
	// Refused says what was refused and with which error, for the log line.
	Refused []string
}

// Restores reports whether SQLServerLoaded clones a template per test (both
// abilities) or loads one database per test package.
func (a SQLServerAbilities) Restores() bool { return a.AlterSet && a.BackupRestore }

// Path is the one line a test logs to say which way its data came.
func (a SQLServerAbilities) Path() string {
	if a.Restores() {
		return "SQL Server test data: restored per test from a template backup (ALTER DATABASE ... SET, BACKUP and RESTORE allowed)"
	}
	return "SQL Server test data: loaded once per test package, shared by its tests (the server refused " + strings.Join(a.Refused, "; ") + ")"
}

var sqlserverProbe struct {
	mu   sync.Mutex
	done bool
	a    SQLServerAbilities
	err  error
}

// SQLServerProbe finds out, once per process, what the test server allows; it skips
// the test without a server.
func SQLServerProbe(t testing.TB) SQLServerAbilities {
	t.Helper()
	admin := SQLServer(t)
	sqlserverProbe.mu.Lock()
	defer sqlserverProbe.mu.Unlock()
	if !sqlserverProbe.done {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		sqlserverProbe.a, sqlserverProbe.err = probeSQLServer(ctx, admin)
		sqlserverProbe.done = true
	}
	if sqlserverProbe.err != nil {
		t.Fatalf("probe the SQL Server test server: %s", safeErr(sqlserverProbe.err, admin))
	}
	return sqlserverProbe.a
}

// probeSQLServer tries each ability on a throwaway database. Creating a database is
// not optional: without it no integration test can run.
func probeSQLServer(ctx context.Context, admin string) (SQLServerAbilities, error) {
	var a SQLServerAbilities
	db, err := sql.Open("sqlserver", admin)
	if err != nil {
		return a, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return a, err
	}
	defer conn.Close()
	name := fmt.Sprintf("bbprobe_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+quoteName(name)); err != nil {
		return a, fmt.Errorf("CREATE DATABASE: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+quoteName(name))

	a.AlterSet = true
	for _, s := range []string{
		"ALTER DATABASE " + quoteName(name) + " SET RECOVERY SIMPLE",
		"ALTER DATABASE " + quoteName(name) + " SET ALLOW_SNAPSHOT_ISOLATION ON",
		"ALTER DATABASE " + quoteName(name) + " SET SINGLE_USER WITH ROLLBACK IMMEDIATE",
		"ALTER DATABASE " + quoteName(name) + " SET MULTI_USER",
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			a.AlterSet = false
			a.Refused = append(a.Refused, refusal(s, err))
			break
		}
	}

	// One backup file, overwritten under an application lock, so probes of parallel
	// test processes neither collide nor leave a file each.
	err = withAppLock(ctx, conn, "brokerbench_probe_backup", func() error {
		backup, err := backupPath(ctx, conn, "bbprobe.bak")
		if err != nil {
			return err
		}
		s := "BACKUP DATABASE " + quoteName(name) + " TO DISK = N'" + strings.ReplaceAll(backup, "'", "''") + "' WITH COPY_ONLY, INIT, FORMAT"
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", "BACKUP DATABASE ... TO DISK", err)
		}
		restored := name + "_r"
		defer conn.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+quoteName(restored))
		if err := sqlserverRestore(ctx, conn, backup, restored); err != nil {
			return fmt.Errorf("RESTORE DATABASE ... FROM DISK: %w", err)
		}
		return nil
	})
	if err != nil {
		a.Refused = append(a.Refused, refusal("", err))
	} else {
		a.BackupRestore = true
	}
	return a, nil
}

// backupPath is file in the server's default backup directory; a server without one
// (Azure SQL Database reports NULL) cannot back up to disk.
func backupPath(ctx context.Context, conn *sql.Conn, file string) (string, error) {
	var dir sql.NullString
	if err := conn.QueryRowContext(ctx, "SELECT CAST(SERVERPROPERTY('InstanceDefaultBackupPath') AS nvarchar(4000))").Scan(&dir); err != nil {
		return "", err
	}
	if !dir.Valid || dir.String == "" {
		return "", errors.New("the server has no default backup path (SERVERPROPERTY('InstanceDefaultBackupPath') is NULL)")
	}
	return joinServerPath(dir.String, file), nil
}

// withAppLock runs fn holding an exclusive session application lock on the
// connection, which serialises it with other test processes.
func withAppLock(ctx context.Context, conn *sql.Conn, resource string, fn func() error) error {
	var r int
	if err := conn.QueryRowContext(ctx, `DECLARE @r int;
EXEC @r = sys.sp_getapplock @Resource = @p1, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 900000;
SELECT @r`, resource).Scan(&r); err != nil {
		return err
	}
	if r < 0 {
		return fmt.Errorf("sp_getapplock %s returned %d", resource, r)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "EXEC sys.sp_releaseapplock @Resource = @p1, @LockOwner = 'Session'", resource)
	return fn()
}

// refusal names a refused statement with the server's error number and message.
func refusal(stmt string, err error) string {
	what := err.Error()
	if n := sqlserver.ErrorNumber(err); n != 0 {
		what = fmt.Sprintf("error %d: %s", n, what)
	}
	if stmt == "" {
		return what
	}
	return stmt + ": " + what
}
