package database

import (
	"net"
	"time"
)

// KeepAlive is the TCP keepalive of every connection brokerbench opens to a server
// (docs/faults.md, "Every connection has a deadline"): after 15 s without traffic the
// kernel probes every 5 s and gives the connection up after 3 unanswered probes, so a
// server host that vanished (a dropped link, a firewall that forgot the connection)
// fails an idle pooled connection within half a minute instead of the kernel's two
// hours. A stopped server process is not found this way (its kernel still answers the
// probes): the run's liveness probe finds that (driver/stall.go).
var KeepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3}

// Dialer returns the dialer the engines connect with: KeepAlive on. Timeouts come
// from the caller's context (the connect timeout).
func Dialer() *net.Dialer {
	return &net.Dialer{KeepAliveConfig: KeepAlive}
}
