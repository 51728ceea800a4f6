package results

import (
	"errors"
	"fmt"
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry shared by every histogram this package makes and reads. Values
// are microseconds. The range is wide on purpose: a stalled storage array can hold a
// transaction for minutes, and a value outside the range would otherwise be lost;
// values are clamped into it instead (see clampMicros). Three significant digits
// keep sub-millisecond differences between storage setups visible (docs/result-format.md, Histograms).
const (
	HistLowestMicros  int64 = 1
	HistHighestMicros int64 = 3600e6 // one hour
	HistSigFigs             = 3
)

// NewHistogram returns an empty histogram of the package's geometry (µs).
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistLowestMicros, HistHighestMicros, HistSigFigs)
}

// NewPacked returns a sparse histogram of the same geometry; per-worker interval
// histograms hold only a handful of values, and a dense one costs ~190 KB.
func NewPacked() *hdrhistogram.PackedHistogram {
	return hdrhistogram.NewPacked(HistLowestMicros, HistHighestMicros, HistSigFigs)
}

// ClampMicros converts d to whole microseconds inside the histogram's range, so a
// Value is never dropped: a zero-length or hour-long transaction still counts.
func ClampMicros(d time.Duration) int64 {
	us := d.Microseconds()
	if us < HistLowestMicros {
		return HistLowestMicros
	}
	if us > HistHighestMicros {
		return HistHighestMicros
	}
	return us
}

// EncodeHistogram returns h in HdrHistogram's V2 compressed encoding, base64: the
// string stored in TxnStats.Response and TxnStats.Service. A nil histogram encodes
// as "".
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	if h == nil {
		return "", nil
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// ErrNoHistogram is returned by DecodeHistogram for an empty string: the file
// carries no histogram for that figure (older or hand-written files).
var ErrNoHistogram = errors.New("no histogram")

// DecodeHistogram parses a string written by EncodeHistogram (or by any HdrHistogram
// V2 compressed, base64 encoder, e.g. Java's or HdrHistogram_c's).
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return nil, ErrNoHistogram
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// MergeHistograms returns a new histogram of the package geometry holding the sum
// of hs (nil entries skipped). Values outside the geometry (only possible for a
// histogram from another tool) are reported as dropped.
func MergeHistograms(hs ...*hdrhistogram.Histogram) (merged *hdrhistogram.Histogram, dropped int64) {
	merged = NewHistogram()
	for _, h := range hs {
		if h != nil {
			dropped += merged.Merge(h)
		}
	}
	return merged, dropped
}

// Summarize turns one transaction type's histograms and counters into TxnStats:
// count, average and percentiles in milliseconds, and both histograms encoded.
// Share is left zero: it depends on the other transactions of the step (SetShares).
// svc may be nil when only response times were recorded.
func Summarize(resp, svc *hdrhistogram.Histogram, errs, retries, rollbacks int64) TxnStats {
	s := TxnStats{Errors: errs, Retries: retries, Rollbacks: rollbacks}
	if resp != nil && resp.TotalCount() > 0 {
		s.Count = resp.TotalCount()
		s.AvgMS = resp.Mean() / 1000
		s.P50MS = MicrosToMS(resp.ValueAtQuantile(50))
		s.P90MS = MicrosToMS(resp.ValueAtQuantile(90))
		s.P95MS = MicrosToMS(resp.ValueAtQuantile(95))
		s.P99MS = MicrosToMS(resp.ValueAtQuantile(99))
		s.MaxMS = MicrosToMS(resp.Max())
		// An encoding error is impossible for a histogram made here; a summary without
		// its histogram still carries every figure, so it is not worth failing for.
		s.Response, _ = EncodeHistogram(resp)
	}
	if svc != nil && svc.TotalCount() > 0 {
		s.ServiceAvgMS = svc.Mean() / 1000
		s.ServiceP95MS = MicrosToMS(svc.ValueAtQuantile(95))
		s.Service, _ = EncodeHistogram(svc)
	}
	return s
}

// SetShares fills each transaction's Share of the step's total count.
func SetShares(txns map[string]TxnStats) {
	var total int64
	for _, t := range txns {
		total += t.Count
	}
	for name, t := range txns {
		t.Share = 0
		if total > 0 {
			t.Share = float64(t.Count) / float64(total)
		}
		txns[name] = t
	}
}

func MicrosToMS(us int64) float64 { return float64(us) / 1000 }

// Round rounds x to n decimals; figures in files and tables carry no false precision.
func Round(x float64, n int) float64 {
	p := math.Pow(10, float64(n))
	return math.Round(x*p) / p
}
