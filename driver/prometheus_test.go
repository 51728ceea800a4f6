package driver

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/brokerbench/brokerbench/results/record"
)

// TestMetrics feeds the collector from a recorder's tick and reads it back through a
// Prometheus registry: counters and cumulative histogram buckets per transaction.
func TestMetrics(t *testing.T) {
	now := time.Unix(1000, 0)
	rec := record.NewRecorder(now)
	h := rec.Handle()
	for _, d := range []time.Duration{300 * time.Microsecond, 3 * time.Millisecond, 40 * time.Millisecond} {
		h.Record("Trade-Order", d, d/2, record.Outcome{Retries: 1})
	}
	h.Record("Trade-Order", 0, 0, record.Outcome{Failed: true})
	m := NewMetrics()
	rec.Tick(now.Add(time.Second), m.Observe)
	m.SetLive(Live{Step: 2, Users: 50, TPS: 3})
	reg := prometheus.NewRegistry()
	reg.MustRegister(m)
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	var buckets map[float64]uint64
	for _, f := range fams {
		for _, mt := range f.Metric {
			switch {
			case mt.Counter != nil:
				got[f.GetName()] = mt.Counter.GetValue()
			case mt.Gauge != nil:
				got[f.GetName()] = mt.Gauge.GetValue()
			case mt.Histogram != nil && f.GetName() == "brokerbench_response_seconds":
				got["response_count"] = float64(mt.Histogram.GetSampleCount())
				buckets = map[float64]uint64{}
				for _, b := range mt.Histogram.Bucket {
					buckets[b.GetUpperBound()] = b.GetCumulativeCount()
				}
			}
		}
	}
	for name, want := range map[string]float64{
		"brokerbench_transactions_total": 3, "brokerbench_transaction_errors_total": 1,
		"brokerbench_transaction_retries_total": 3, "response_count": 3,
		"brokerbench_users": 50, "brokerbench_step": 2, "brokerbench_tps": 3,
	} {
		if got[name] != want {
			t.Errorf("%s = %g, want %g", name, got[name], want)
		}
	}
	for bound, want := range map[float64]uint64{0.0002: 0, 0.0005: 1, 0.002: 1, 0.005: 2, 0.02: 2, 0.05: 3, 30: 3} {
		if buckets[bound] != want {
			t.Errorf("bucket le=%g: %d, want %d", bound, buckets[bound], want)
		}
	}
}
