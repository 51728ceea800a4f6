package database

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://bob:s3cret@db:5432/bench?sslmode=require", "postgres://bob:xxxxx@db:5432/bench?sslmode=require"},
		{"postgres://bob@db/bench", "postgres://bob@db/bench"},
		{"postgres://db/bench?password=s3cret&user=bob", "postgres://db/bench?password=xxxxx&user=bob"},
		{"host=db user=bob password=s3cret dbname=bench", "host=db user=bob password=xxxxx dbname=bench"},
		{"host=db password='s3 cret' dbname=bench", "host=db password=xxxxx dbname=bench"},
		{"sqlserver://sa:s3cret@db:1433?database=bench&encrypt=true", "sqlserver://sa:xxxxx@db:1433?database=bench&encrypt=true"},
		{"sqlserver://db:1433?database=bench&password=s3cret", "sqlserver://db:1433?database=bench&password=xxxxx"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzRedact: whatever the DSN, redaction never panics and never lets a password
// through that the DSN marks as one.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"postgres://u:pw@h/d", "host=h password=pw", "password='p w'", "sqlserver://u:pw@h?password=pw",
		"postgres://u:p%40w@h/d", "%", "://", "host='unterminated password=pw"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		out := Redact(dsn)
		const secret = "Zq9SECRETpw"
		if strings.Contains(Redact("postgres://u:"+secret+"@h/d?"+sanitizeQuery(dsn)), secret) {
			t.Fatalf("password survived redaction")
		}
		if strings.Contains(Redact("host=h password="+secret+" "+dsn), secret) && !strings.Contains(dsn, secret) {
			t.Fatalf("key=value password survived redaction: %q", out)
		}
	})
}

// sanitizeQuery keeps fuzz input from forming its own userinfo.
func sanitizeQuery(s string) string {
	return strings.NewReplacer("@", "", "/", "", "#", "", "?", "").Replace(s)
}

// TestRedactURL: any URL a flag takes loses its password and its secret query
// parameters; a passfile stays shown (a path, not the secret); a value that is not
// a URL passes unchanged.
func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://user:PASS@host:9100", "http://user:xxxxx@host:9100"},
		{"http://host:9100/metrics?token=PASS&collect[]=cpu", "http://host:9100/metrics?collect%5B%5D=cpu&token=xxxxx"},
		{"http://host:9100/metrics?collect[]=cpu", "http://host:9100/metrics?collect[]=cpu"},
		{"postgres://u@h/d?sslpassword=PASS&passfile=/home/u/.pgpass", "postgres://u@h/d?passfile=%2Fhome%2Fu%2F.pgpass&sslpassword=xxxxx"},
		{"host=h sslpassword=PASS", "host=h sslpassword=PASS"}, // not a URL: --db goes through Redact itself
		{"nvme0n1=data", "nvme0n1=data"},
	} {
		if got := RedactURL(tc.in); got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Redact("host=h sslpassword=PASS"); strings.Contains(got, "PASS") {
		t.Errorf("Redact kept the sslpassword: %q", got)
	}
}
