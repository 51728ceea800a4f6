package mysql

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// A DSN comes in one of two forms, both behind the mysql:// (or mariadb://) scheme
// that selects this engine (docs/mysql.md §1):
//
//	mysql://user:password@host:3306/database?connect_timeout=10
//	mysql://user:password@tcp(host:3306)/database?tls=true        the driver's own form
//	mysql://user:password@unix(/run/mysqld/mysqld.sock)/database
//
// In the URL form the user and password are URL-escaped and every query parameter
// but connect_timeout (seconds, as PostgreSQL's) goes to the driver as it is. The
// driver's own form is what go-sql-driver/mysql documents, with the scheme in front.

// connectTimeoutParam is the benchmark's own parameter, as on the other engines.
const connectTimeoutParam = "connect_timeout"

// parseDSN reads either form into the driver's configuration and the DSN's connect
// timeout (0 without one). Its errors never hold the password.
func parseDSN(dsn string) (*driver.Config, time.Duration, error) {
	s := strings.TrimSpace(dsn)
	i := strings.Index(s, "://")
	if i < 0 {
		return nil, 0, errors.New("not a mysql:// URL")
	}
	rest := s[i+3:]
	if driverForm(rest) {
		return parseDriverForm(rest)
	}
	u, err := url.Parse(s)
	if err != nil {
		// url.Parse quotes its input, password included: never pass it on.
		return nil, 0, errors.New("not a URL of the form mysql://user:password@host:port/database")
	}
	q := u.Query()
	timeout, err := takeTimeout(q)
	if err != nil {
		return nil, 0, err
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "3306"
	}
	db := strings.TrimPrefix(u.Path, "/")
	if strings.Contains(db, "/") {
		return nil, 0, fmt.Errorf("database name %q holds a slash", db)
	}
	// The driver reads the query parameters (tls, charset, timeouts...) and says which
	// it does not know; the address and credentials are set after.
	cfg, err := driver.ParseDSN("tcp(" + net.JoinHostPort(host, port) + ")/" + db + queryPart(q))
	if err != nil {
		return nil, 0, err // the string has no credentials
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	return cfg, timeout, nil
}

// driverForm says whether the part after the scheme is the driver's DSN: its address
// is written tcp(...) or unix(...).
func driverForm(rest string) bool {
	at := strings.LastIndex(rest, "@")
	addr := rest[at+1:]
	return strings.HasPrefix(addr, "tcp(") || strings.HasPrefix(addr, "unix(") || strings.HasPrefix(addr, "tcp6(")
}

func parseDriverForm(rest string) (*driver.Config, time.Duration, error) {
	base, query, _ := strings.Cut(rest, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, 0, errors.New("the query part after ? is not key=value&...")
	}
	timeout, err := takeTimeout(q)
	if err != nil {
		return nil, 0, err
	}
	cfg, err := driver.ParseDSN(base + queryPart(q))
	if err != nil {
		return nil, 0, errors.New(database.ScrubSecret(err.Error(), passwordOf(base)))
	}
	return cfg, timeout, nil
}

// passwordOf is the password of a driver-form DSN's user:password@ part, for
// scrubbing messages.
func passwordOf(base string) string {
	at := strings.LastIndex(base, "@")
	if at < 0 {
		return ""
	}
	_, pw, ok := strings.Cut(base[:at], ":")
	if !ok {
		return ""
	}
	return pw
}

func queryPart(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// takeTimeout removes connect_timeout from q and returns it.
func takeTimeout(q url.Values) (time.Duration, error) {
	v := q.Get(connectTimeoutParam)
	q.Del(connectTimeoutParam)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: want whole seconds", connectTimeoutParam, v)
	}
	return time.Duration(n) * time.Second, nil
}

// describe names the server without secrets: "host:port, database d, user u" (or
// "socket path, ...").
func describe(cfg *driver.Config) string {
	where := cfg.Addr
	if cfg.Net == "unix" {
		where = "socket " + cfg.Addr
	}
	db := cfg.DBName
	if db == "" {
		db = "(none)"
	}
	return fmt.Sprintf("%s, database %s, user %s", where, db, cfg.User)
}

// shown is Engine.Shown: the target as describe names it, or "" for a DSN it cannot
// read (Open then says what is wrong).
func shown(dsn string) string {
	cfg, _, err := parseDSN(dsn)
	if err != nil {
		return ""
	}
	return describe(cfg)
}
