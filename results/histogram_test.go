package results

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	h := NewHistogram()
	for v := int64(1); v < 5_000_000; v = v*3 + 7 {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHistogram(s)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equals(h) {
		t.Fatalf("decoded histogram differs: count %d vs %d, max %d vs %d", back.TotalCount(), h.TotalCount(), back.Max(), h.Max())
	}
	if back.HighestTrackableValue() != HistHighestMicros || back.SignificantFigures() != HistSigFigs {
		t.Fatalf("geometry not kept: %d %d", back.HighestTrackableValue(), back.SignificantFigures())
	}
}

func TestDecodeErrors(t *testing.T) {
	if _, err := DecodeHistogram(""); !errors.Is(err, ErrNoHistogram) {
		t.Fatalf("empty: %v", err)
	}
	for _, bad := range []string{"!!!", "AAAA", "HISTFAAAAB", "HISTFAAAACh4nJNpmSzMwMBgyAABzFCaEUoDAA"} {
		if _, err := DecodeHistogram(bad); err == nil {
			t.Errorf("%q decoded without error", bad)
		}
	}
}

func TestMergeHistograms(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	for i := 0; i < 900; i++ {
		_ = a.RecordValue(1000) // 1 ms
	}
	for i := 0; i < 100; i++ {
		_ = b.RecordValue(100_000) // 100 ms
	}
	m, dropped := MergeHistograms(a, nil, b)
	if dropped != 0 || m.TotalCount() != 1000 {
		t.Fatalf("merged count %d dropped %d", m.TotalCount(), dropped)
	}
	// p50 stays at 1 ms, p95 lands in the slow tail: merging is not averaging.
	if p := m.ValueAtQuantile(50); !m.ValuesAreEquivalent(p, 1000) {
		t.Errorf("p50 = %d µs", p)
	}
	if p := m.ValueAtQuantile(95); !m.ValuesAreEquivalent(p, 100_000) {
		t.Errorf("p95 = %d µs", p)
	}
	if a.TotalCount() != 900 {
		t.Error("merge changed its input")
	}
}

func TestSummarize(t *testing.T) {
	resp, svc := NewHistogram(), NewHistogram()
	for i := 1; i <= 100; i++ {
		_ = resp.RecordValue(int64(i) * 1000)
		_ = svc.RecordValue(int64(i) * 500)
	}
	s := Summarize(resp, svc, 3, 4, 5)
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > want*0.002 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if s.Count != 100 || s.Errors != 3 || s.Retries != 4 || s.Rollbacks != 5 {
		t.Fatalf("counts %+v", s)
	}
	near("avg", s.AvgMS, 50.5)
	near("p50", s.P50MS, 50)
	near("p90", s.P90MS, 90)
	near("p95", s.P95MS, 95)
	near("p99", s.P99MS, 99)
	near("max", s.MaxMS, 100)
	near("svc avg", s.ServiceAvgMS, 25.25)
	near("svc p95", s.ServiceP95MS, 47.5)
	if s.Response == "" || s.Service == "" {
		t.Fatal("histograms not encoded")
	}
	back, err := DecodeHistogram(s.Response)
	if err != nil || back.TotalCount() != 100 {
		t.Fatalf("decode: %v", err)
	}
	if z := Summarize(nil, nil, 1, 0, 0); z.Count != 0 || z.Errors != 1 || z.Response != "" {
		t.Fatalf("empty summary %+v", z)
	}
}

func TestClampMicros(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{{0, 1}, {-time.Second, 1}, {1500 * time.Nanosecond, 1}, {2 * time.Millisecond, 2000}, {3 * time.Hour, HistHighestMicros}} {
		if got := ClampMicros(c.d); got != c.want {
			t.Errorf("clampMicros(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}
