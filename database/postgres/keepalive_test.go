package postgres_test

import (
	"context"
	"net"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestKeepAlive: a pooled connection to the server has TCP keepalives on with
// database.KeepAlive's idle time, interval and count, as the kernel reports them.
func TestKeepAlive(t *testing.T) {
	t.Parallel()
	pg, err := postgres.Open(context.Background(), testpg.NewDB(t), database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	conn, err := pg.Pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	tcp, ok := conn.Conn().PgConn().Conn().(*net.TCPConn)
	if !ok {
		t.Skipf("the test server's connection is %T, not TCP", conn.Conn().PgConn().Conn())
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	ka := database.KeepAlive
	want := map[string]int{"SO_KEEPALIVE": 1, "TCP_KEEPIDLE": int(ka.Idle.Seconds()), "TCP_KEEPINTVL": int(ka.Interval.Seconds()), "TCP_KEEPCNT": ka.Count}
	if err := raw.Control(func(fd uintptr) {
		for name, opt := range map[string][2]int{"SO_KEEPALIVE": {syscall.SOL_SOCKET, syscall.SO_KEEPALIVE},
			"TCP_KEEPIDLE": {syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE}, "TCP_KEEPINTVL": {syscall.IPPROTO_TCP, syscall.TCP_KEEPINTVL},
			"TCP_KEEPCNT": {syscall.IPPROTO_TCP, syscall.TCP_KEEPCNT}} {
			v, err := syscall.GetsockoptInt(int(fd), opt[0], opt[1])
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			got[name] = v
		}
	}); err != nil {
		t.Fatal(err)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s = %d, want %d", name, got[name], w)
		}
	}
}
