package testdb

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	mssql "github.com/microsoft/go-mssqldb"
)

func TestSQLServerWithDatabase(t *testing.T) {
	got := SQLServerWithDatabase("sqlserver://sa:pw@h:1433?Database=master&encrypt=true", "bbtest_1")
	u, err := url.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("database") != "bbtest_1" || q.Get("Database") != "" || q.Get("encrypt") != "true" {
		t.Errorf("got %s", got)
	}
	if p, _ := u.User.Password(); p != "pw" {
		t.Error("credentials lost")
	}
}

func TestSQLServerSkipsWithoutDSN(t *testing.T) {
	if os.Getenv(EnvSQLServerDSN) != "" {
		t.Skip("a server is configured; the skip path is not taken")
	}
	var skipped bool
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		SQLServer(t)
		t.Error("SQLServer returned without a DSN")
	})
	if !skipped {
		t.Error("test was not skipped")
	}
}

func TestQuoteName(t *testing.T) {
	if got := quoteName("a]b"); got != "[a]]b]" {
		t.Error(got)
	}
}

func TestJoinServerPath(t *testing.T) {
	for _, c := range [][3]string{
		{"/var/opt/mssql/data/", "x.bak", "/var/opt/mssql/data/x.bak"},
		{"/var/opt/mssql/data", "x.bak", "/var/opt/mssql/data/x.bak"},
		{`C:\Program Files\MSSQL\Backup\`, "x.bak", `C:\Program Files\MSSQL\Backup\x.bak`},
	} {
		if got := joinServerPath(c[0], c[1]); got != c[2] {
			t.Errorf("joinServerPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestSQLServerAbilitiesPath(t *testing.T) {
	all := SQLServerAbilities{AlterSet: true, BackupRestore: true}
	if !all.Restores() || !strings.Contains(all.Path(), "restored per test") {
		t.Errorf("all allowed: %v %q", all.Restores(), all.Path())
	}
	for _, a := range []SQLServerAbilities{
		{AlterSet: true, Refused: []string{"BACKUP DATABASE ... TO DISK: error 40510: not supported"}},
		{BackupRestore: true, Refused: []string{"ALTER DATABASE [x] SET RECOVERY SIMPLE: error 5008: not supported"}},
	} {
		if a.Restores() || !strings.Contains(a.Path(), "once per test package") || !strings.Contains(a.Path(), a.Refused[0]) {
			t.Errorf("%+v: %v %q", a, a.Restores(), a.Path())
		}
	}
}

func TestRefusalNamesTheErrorNumber(t *testing.T) {
	err := fmt.Errorf("exec: %w", mssql.Error{Number: 40510, Message: "Statement 'BACKUP DATABASE' is not supported in this version of SQL Server."})
	got := refusal("BACKUP DATABASE [p]", err)
	if !strings.HasPrefix(got, "BACKUP DATABASE [p]: error 40510: ") || !strings.Contains(got, "not supported") {
		t.Errorf("got %q", got)
	}
	if got := refusal("", errors.New("no default backup path")); got != "no default backup path" {
		t.Errorf("got %q", got)
	}
}
