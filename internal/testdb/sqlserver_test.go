package testdb

import (
	"net/url"
	"os"
	"testing"
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
