package run

import "testing"

func TestMetricsListenAddr(t *testing.T) {
	for in, want := range map[string]string{
		":9090":          "127.0.0.1:9090",
		"9090":           "127.0.0.1:9090",
		"0.0.0.0:9090":   "0.0.0.0:9090",
		"[::1]:9100":     "[::1]:9100",
		"metrics.lan:80": "metrics.lan:80",
	} {
		if got := metricsListenAddr(in); got != want {
			t.Errorf("metricsListenAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
