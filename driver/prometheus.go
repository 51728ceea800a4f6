package driver

import (
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/brokerbench/brokerbench/results/record"
)

// metricBuckets are the Prometheus histogram bounds in seconds: dense below 10 ms,
// where storage setups differ.
var metricBuckets = []float64{0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30}

// Metrics exposes the run to Prometheus. It is fed from the driver's once-a-second
// tick (OnInterval, OnTick), never from the transactions' hot path: the tick's
// merged HdrHistograms are folded into cumulative bucket counts, and Collect hands
// out constant metrics built from them.
type Metrics struct {
	mu   sync.Mutex
	txns map[string]*txnCounters
	live Live

	count, errs, retries, rollbacks *prometheus.Desc
	resp, svc                       *prometheus.Desc
	users, step, tps, tpse, iops    *prometheus.Desc
}

type txnCounters struct {
	count, errs, retries, rollbacks uint64
	resp, svc                       bucketCounts
}

type bucketCounts struct {
	counts []uint64 // per bound, not cumulative; one more for +Inf
	sum    float64  // seconds
	n      uint64
}

func (b *bucketCounts) add(iv *record.Interval, svc bool) {
	h := iv.Response
	if svc {
		h = iv.Service
	}
	if b.counts == nil {
		b.counts = make([]uint64, len(metricBuckets)+1)
	}
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		v := float64(bar.To) / 1e6 // µs → s
		i, _ := slices.BinarySearch(metricBuckets, v)
		b.counts[i] += uint64(bar.Count)
		b.sum += v * float64(bar.Count)
		b.n += uint64(bar.Count)
	}
}

func (b *bucketCounts) cumulative() map[float64]uint64 {
	m := make(map[float64]uint64, len(metricBuckets))
	var c uint64
	for i, bound := range metricBuckets {
		if b.counts != nil {
			c += b.counts[i]
		}
		m[bound] = c
	}
	return m
}

var _ prometheus.Collector = (*Metrics)(nil)

// NewMetrics returns an empty collector; register it and feed it with Observe and
// SetLive.
func NewMetrics() *Metrics {
	txn := []string{"txn"}
	return &Metrics{
		txns:      map[string]*txnCounters{},
		count:     prometheus.NewDesc("brokerbench_transactions_total", "Transactions completed (not failed), by type.", txn, nil),
		errs:      prometheus.NewDesc("brokerbench_transaction_errors_total", "Transactions failed after their retries, by type.", txn, nil),
		retries:   prometheus.NewDesc("brokerbench_transaction_retries_total", "Retries after serialization failures and deadlocks, by type.", txn, nil),
		rollbacks: prometheus.NewDesc("brokerbench_transaction_rollbacks_total", "Intended business rollbacks, by type.", txn, nil),
		resp:      prometheus.NewDesc("brokerbench_response_seconds", "Response time from the intended start, by type.", txn, nil),
		svc:       prometheus.NewDesc("brokerbench_service_seconds", "Service time from the first statement, by type.", txn, nil),
		users:     prometheus.NewDesc("brokerbench_users", "Users running now.", nil, nil),
		step:      prometheus.NewDesc("brokerbench_step", "Step number (1-based) running now.", nil, nil),
		tps:       prometheus.NewDesc("brokerbench_tps", "Transactions per second over the last second.", nil, nil),
		tpse:      prometheus.NewDesc("brokerbench_tps_e", "Trade-Results per second over the last second.", nil, nil),
		iops:      prometheus.NewDesc("brokerbench_iops", "Storage I/O per second (read plus write) of the last sample.", nil, nil),
	}
}

// Observe adds one tick's interval of one transaction type.
func (m *Metrics) Observe(iv record.Interval) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.txns[iv.Name]
	if t == nil {
		t = &txnCounters{}
		m.txns[iv.Name] = t
	}
	t.count += uint64(iv.Response.TotalCount())
	t.errs += uint64(iv.Errors)
	t.retries += uint64(iv.Retries)
	t.rollbacks += uint64(iv.Rollbacks)
	t.resp.add(&iv, false)
	t.svc.add(&iv, true)
}

// SetLive records the latest live figures.
func (m *Metrics) SetLive(l Live) {
	m.mu.Lock()
	m.live = l
	m.mu.Unlock()
}

func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.count, m.errs, m.retries, m.rollbacks, m.resp, m.svc, m.users, m.step, m.tps, m.tpse, m.iops} {
		ch <- d
	}
}

func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for name, t := range m.txns {
		ch <- prometheus.MustNewConstMetric(m.count, prometheus.CounterValue, float64(t.count), name)
		ch <- prometheus.MustNewConstMetric(m.errs, prometheus.CounterValue, float64(t.errs), name)
		ch <- prometheus.MustNewConstMetric(m.retries, prometheus.CounterValue, float64(t.retries), name)
		ch <- prometheus.MustNewConstMetric(m.rollbacks, prometheus.CounterValue, float64(t.rollbacks), name)
		ch <- prometheus.MustNewConstHistogram(m.resp, t.resp.n, t.resp.sum, t.resp.cumulative(), name)
		ch <- prometheus.MustNewConstHistogram(m.svc, t.svc.n, t.svc.sum, t.svc.cumulative(), name)
	}
	ch <- prometheus.MustNewConstMetric(m.users, prometheus.GaugeValue, float64(m.live.Users))
	ch <- prometheus.MustNewConstMetric(m.step, prometheus.GaugeValue, float64(m.live.Step))
	ch <- prometheus.MustNewConstMetric(m.tps, prometheus.GaugeValue, m.live.TPS)
	ch <- prometheus.MustNewConstMetric(m.tpse, prometheus.GaugeValue, m.live.TPSE)
	if m.live.IO != nil {
		ch <- prometheus.MustNewConstMetric(m.iops, prometheus.GaugeValue, m.live.IO.ReadIOPS+m.live.IO.WriteIOPS)
	}
}
