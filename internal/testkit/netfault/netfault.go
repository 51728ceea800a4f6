// Package netfault holds network faults for tests: servers that misbehave the way a
// wrong or hung endpoint does, on real sockets.
package netfault

import (
	"net"
	"sync"
	"testing"
)

// Silent is a TCP listener on loopback that accepts every connection and never
// sends a byte: a port that is not the database (or a hung one). Accepted receives
// one value per accepted connection, so a test can act once a client is connected.
type Silent struct {
	Addr     string // host:port
	Accepted chan struct{}
}

// NewSilent starts a Silent listener, closed with its connections when the test ends.
func NewSilent(t testing.TB) *Silent {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Silent{Addr: l.Addr().String(), Accepted: make(chan struct{}, 64)}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			select {
			case s.Accepted <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return s
}
