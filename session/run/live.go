package run

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/term"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// liveWriter prints the live line: rewritten in place on a terminal, plain lines
// otherwise (logs, CI), nothing when quiet.
type liveWriter struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	quiet bool
	shown bool
}

func newLiveWriter(g *session.Globals) *liveWriter {
	lw := &liveWriter{w: g.Stderr, quiet: g.Quiet}
	if f, ok := g.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		lw.tty = true
	}
	return lw
}

func (l *liveWriter) line(s string) {
	if l.quiet {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty {
		// A line wider than the terminal wraps, and \r would then leave its
		// first part behind on every redraw.
		if f, ok := l.w.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 1 && len(s) >= w {
				s = s[:w-1]
			}
		}
		fmt.Fprintf(l.w, "\r\033[K%s", results.Printable(s))
		l.shown = true
		return
	}
	fmt.Fprintln(l.w, results.Printable(s))
}

// clear removes the live line before other output.
func (l *liveWriter) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty && l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
}

func (l *liveWriter) logf(format string, args ...any) {
	if l.quiet {
		return
	}
	l.clear()
	l.mu.Lock()
	// Server messages and file names in the arguments are not ours to trust.
	fmt.Fprintln(l.w, results.Printable(fmt.Sprintf(format, args...)))
	l.mu.Unlock()
}

// serveMetrics serves Prometheus metrics until stop is called.
func serveMetrics(addr string, m *driver.Metrics, lw *liveWriter) (stop func(), err error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(m, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ln, err := net.Listen("tcp", metricsListenAddr(addr))
	if err != nil {
		return nil, session.Usagef("--metrics-addr %s: %v", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	lw.logf("metrics: http://%s/metrics", ln.Addr())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

// metricsListenAddr binds loopback when only a port is given.
func metricsListenAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if !strings.Contains(addr, ":") {
			return net.JoinHostPort("127.0.0.1", addr)
		}
		return addr
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
