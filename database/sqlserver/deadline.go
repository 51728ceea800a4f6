package sqlserver

import (
	"context"
	"database/sql/driver"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
)

// go-mssqldb reads the pre-login and login answers without watching the context
// (its "connection timeout" would instead time out every read for the connection's
// life, long queries included), so a port that accepts and never answers, or answers
// something that is not SQL Server, held a connect forever and Ctrl-C with it. Every
// connection gets a deadline here instead: its socket must finish the login within
// the connect timeout, and an ended context (an interrupt, the caller's deadline) cuts
// it at once; once logged in, the socket has no deadline again.

// deadlineConnector opens go-mssqldb connections whose login is bounded.
type deadlineConnector struct {
	inner   *mssql.Connector
	timeout time.Duration
}

// pendingKey carries a connect's pendingConn from Connect to the dialer.
type pendingKey struct{}

// pendingConn is the socket of one connect in progress.
type pendingConn struct {
	deadline time.Time // the login must be done by then
	mu       sync.Mutex
	conn     net.Conn
	expired  bool // the connect's time ran out (or its context ended)
	done     bool // logged in: the deadline is off
}

func newDeadlineConnector(dsn string, timeout time.Duration) (*deadlineConnector, error) {
	inner, err := mssql.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	inner.Dialer = deadlineDialer{}
	return &deadlineConnector{inner: inner, timeout: timeout}, nil
}

func (c *deadlineConnector) Connect(outer context.Context) (driver.Conn, error) {
	ctx, cancel := context.WithTimeout(outer, c.timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	p := &pendingConn{deadline: deadline}
	stop := context.AfterFunc(ctx, p.expire)
	defer stop()
	conn, err := c.inner.Connect(context.WithValue(ctx, pendingKey{}, p))
	p.finish(err == nil)
	if err != nil && outer.Err() != nil {
		// Cut by the caller (an interrupt): say so rather than "i/o timeout". A
		// connect that timed out keeps its i/o timeout, a network error: a lost
		// connection to the load driver.
		return nil, outer.Err()
	}
	return conn, err
}

func (c *deadlineConnector) Driver() driver.Driver { return c.inner.Driver() }

// expire cuts the socket's reads and writes now.
func (p *pendingConn) expire() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expired = true
	if p.conn != nil && !p.done {
		_ = p.conn.SetDeadline(time.Unix(1, 0))
	}
}

// dialed registers the connect's socket, cut at once when its time already ran out.
func (p *pendingConn) dialed(conn net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conn = conn
	deadline := p.deadline
	if p.expired {
		deadline = time.Unix(1, 0)
	}
	_ = conn.SetDeadline(deadline)
}

// finish ends the connect; a socket that logged in loses its deadline (even one
// that expired a moment after the login finished).
func (p *pendingConn) finish(loggedIn bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	if p.conn != nil && loggedIn {
		_ = p.conn.SetDeadline(time.Time{})
	}
}

// deadlineDialer dials as go-mssqldb's own dialer does (TCP keep-alive at the
// protocol's 30 s) and hands the socket to the connect that asked for it.
type deadlineDialer struct{}

func (deadlineDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{KeepAlive: 30 * time.Second}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if p, ok := ctx.Value(pendingKey{}).(*pendingConn); ok {
		p.dialed(conn)
	}
	return conn, nil
}

// ConnectTimeoutParam is the sqlserver:// URL parameter that sets the connect
// timeout in seconds, as libpq's connect_timeout does on PostgreSQL. It is the
// benchmark's own and is removed before the URL reaches go-mssqldb.
const ConnectTimeoutParam = "connect_timeout"

// takeConnectTimeout removes connect_timeout from a sqlserver:// URL and returns its
// value; 0 when the URL has none. A URL that does not parse is left to the caller.
func takeConnectTimeout(dsn string) (string, time.Duration, error) {
	u, err := url.Parse(strings.TrimSpace(dsn))
	if err != nil {
		return dsn, 0, nil
	}
	q := u.Query()
	var d time.Duration
	for k, v := range q {
		if !strings.EqualFold(k, ConnectTimeoutParam) {
			continue
		}
		s, err := strconv.ParseFloat(v[len(v)-1], 64)
		if err != nil || !(s > 0 && s <= maxConnectTimeoutS) {
			return "", 0, fmt.Errorf("%s=%q: want seconds, more than 0 and at most %d", ConnectTimeoutParam, v[len(v)-1], maxConnectTimeoutS)
		}
		d = time.Duration(s * float64(time.Second))
		q.Del(k)
	}
	if d == 0 {
		return dsn, 0, nil
	}
	u.RawQuery = q.Encode()
	return u.String(), d, nil
}

// maxConnectTimeoutS bounds connect_timeout: an hour is already no deadline at all.
const maxConnectTimeoutS = 3600
