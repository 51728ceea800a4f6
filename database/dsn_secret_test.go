package database_test

import (
	"context"
	"net"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/microsoft/go-mssqldb/msdsn"

	"github.com/brokerbench/brokerbench/database"
	_ "github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/database/sqlserver"
)

// FuzzOpenDSN: whatever --db says, Open returns an error or a database, never
// panics, and its error never carries the DSN's password. Only DSNs whose every
// host is loopback (or a local socket) are dialled, with a short timeout: the fuzzer
// must not reach out to the network.
func FuzzOpenDSN(f *testing.F) {
	for _, s := range []string{
		"postgres://bench:Zq9pw!x@127.0.0.1:1/bench",
		"postgresql://bench:Zq9pw!x@localhost:1/bench?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
		"postgres://bench:Zq9pw!x@[::1]:1/bench?connect_timeout=1",
		"postgres://bench:Zq9pw!x@[::1",
		"postgres://bench:p%40ss%ZZ@127.0.0.1/bench",
		"postgres://bench:Zq9pw!x@127.0.0.1:notaport/bench",
		"postgres://bench:Zq9pw!x@127.0.0.1:1,127.0.0.2:1/bench",
		"host=127.0.0.1 port=1 user=bench password=Zq9pw!x dbname=bench",
		"host=127.0.0.1 port=1 password='Zq9 pw!x",
		"host=/nonexistent/socket password=Zq9pw!x",
		"sslmode=bogus host=127.0.0.1 password=Zq9pw!x",
		"sqlserver://sa:Zq9pw!x@127.0.0.1:1?database=bb&dial+timeout=1",
		"sqlserver://sa:Zq9pw!x@127.0.0.1:1?database=bb&encrypt=strict&brokerbench_read_committed=bogus",
		"sqlserver://sa:Zq9pw!x@[::1",
		"sqlserver://sa@127.0.0.1:1?password=Zq9pw!x&encrypt=maybe",
		"", "postgres://", "sqlserver://", "%", "\x00", "mysql://root:Zq9pw!x@127.0.0.1/x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		hosts, pws, ok := dsnTargets(dsn)
		if !ok {
			// Not dialled; redaction at least must hold.
			for _, pw := range pws {
				if strings.Contains(database.Redact(dsn), pw) && !innocent(pw, dsn) {
					t.Fatalf("Redact(%q) keeps the password %q", dsn, pw)
				}
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1, Timeout: 300 * time.Millisecond, AppName: "brokerbench fuzz"})
		if err == nil {
			db.Close()
			return
		}
		msg := err.Error()
		for _, pw := range pws {
			if strings.Contains(msg, pw) && !innocent(pw, dsn) {
				t.Fatalf("Open(%q) to %v: the error carries the password %q: %s", dsn, hosts, pw, msg)
			}
		}
	})
}

// innocent: a password that may show up in an error for other reasons - a plain
// word of an error message, or text the redacted DSN shows anyway (as user or host).
func innocent(pw, dsn string) bool {
	if len(pw) < 4 || strings.Contains(strings.ReplaceAll(database.Redact(dsn), "xxxxx", ""), pw) {
		return true
	}
	return strings.IndexFunc(pw, func(r rune) bool { return !unicode.IsLetter(r) && r != ' ' }) < 0
}

var kvPassword = regexp.MustCompile(`(?i)password\s*=\s*'?([^\s&']+)`)

// dsnTargets returns the hosts a DSN would dial and the passwords it holds; ok is
// false unless the DSN parses and every host is loopback or a local socket.
func dsnTargets(dsn string) (hosts, pws []string, ok bool) {
	if u, err := url.Parse(strings.TrimSpace(dsn)); err == nil && u.User != nil {
		if pw, set := u.User.Password(); set && pw != "" {
			pws = append(pws, pw)
		}
	}
	for _, m := range kvPassword.FindAllStringSubmatch(dsn, -1) {
		pws = append(pws, m[1])
	}
	if e, err := database.For(dsn); err == nil && e == sqlserver.Engine {
		clean, err := withoutOwnParam(dsn)
		if err != nil {
			return nil, pws, false
		}
		cfg, err := msdsn.Parse(clean)
		if err != nil {
			return nil, pws, false
		}
		if cfg.Password != "" {
			pws = append(pws, cfg.Password)
		}
		if cfg.FailOverPartner != "" || cfg.Instance != "" {
			return nil, pws, false
		}
		return []string{cfg.Host}, pws, loopback(cfg.Host)
	}
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return nil, pws, false
	}
	if cfg.Password != "" {
		pws = append(pws, cfg.Password)
	}
	hosts = []string{cfg.Host}
	for _, fb := range cfg.Fallbacks {
		hosts = append(hosts, fb.Host)
	}
	for _, h := range hosts {
		if !loopback(h) {
			return hosts, pws, false
		}
	}
	return hosts, pws, true
}

// withoutOwnParam removes brokerbench's own URL parameter, as the SQL Server engine
// does before go-mssqldb sees the URL.
func withoutOwnParam(dsn string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(dsn))
	if err != nil {
		return "", err
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, sqlserver.ReadCommittedParam) {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func loopback(host string) bool {
	if strings.HasPrefix(host, "/") || host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
