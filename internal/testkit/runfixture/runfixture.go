// Package runfixture builds the result files the tests of results/... read: a
// deterministic run, and the workload's transaction types as the command hands them in.
package runfixture

import (
	"math/rand/v2"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// Workload is the catalogue's transaction types as the command hands them in
// (driver.Workload, which these tests cannot import: the driver imports results).
func Workload() results.Workload {
	var w results.Workload
	for _, s := range txn.Catalogue {
		w = append(w, results.Transaction{Name: s.Name, ReadOnly: s.ReadOnly, Limit: s.Limit})
	}
	return w
}

// SampleTxns are the workload's names as the driver records them.
var SampleTxns = []string{"Trade-Order", "Trade-Result", "Market-Feed", "Customer-Position"}

// SampleRun builds a deterministic run: steps at users, each transaction with
// response times around baseMS×(1+users/100)×slow, tps scaled by speed.
func SampleRun(label string, users []int, speed, slow float64, seed uint64) *results.Run {
	rng := rand.New(rand.NewPCG(seed, 42))
	start := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	r := &results.Run{
		Format:    results.FormatVersion,
		Label:     label,
		Tags:      map[string]string{"controller": label, "raid": "10"},
		Database:  results.Database{Product: "PostgreSQL", Version: "17.2"},
		Scale:     results.Scale{Customers: 1000, TradeDays: 5},
		Seed:      seed,
		Tool:      "brokerbench test",
		StartedAt: start,
	}
	for i, u := range users {
		st := results.Step{Users: u, StartedAt: start.Add(time.Duration(i) * time.Minute), WarmupS: 10, MeasuredS: 50,
			Transactions: map[string]results.TxnStats{}}
		var total int64
		for k, name := range SampleTxns {
			resp, svc := results.NewHistogram(), results.NewHistogram()
			base := float64(k+1) * (1 + float64(u)/100) * slow // ms
			n := int(float64(20*u) * speed / float64(k+1))
			for j := 0; j < n; j++ {
				ms := base * rng.ExpFloat64()
				_ = resp.RecordValue(results.ClampMicros(time.Duration(ms * float64(time.Millisecond))))
				_ = svc.RecordValue(results.ClampMicros(time.Duration(0.8 * ms * float64(time.Millisecond))))
			}
			ts := results.Summarize(resp, svc, int64(k), int64(2*k), 0)
			if name == "Trade-Order" {
				ts.Rollbacks = int64(n / 100)
			}
			st.Transactions[name] = ts
			total += ts.Count
		}
		results.SetShares(st.Transactions)
		st.TPS = float64(total) / st.MeasuredS
		st.TPSE = float64(st.Transactions["Trade-Result"].Count) / st.MeasuredS
		st.IO = &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{
			ReadIOPS: 10 * float64(u) * speed, WriteIOPS: 20 * float64(u) * speed,
			ReadMBps: 0.08 * float64(u) * speed, WriteMBps: 0.16 * float64(u) * speed,
			ReadAwaitMS: 0.5 * slow, WriteAwaitMS: 0.3 * slow, QueueDepth: 1.5,
		}}
		st.IO.IOPerTxn = (st.IO.ReadIOPS + st.IO.WriteIOPS) / st.TPS
		for s := 0; s < 3; s++ {
			st.IO.Series = append(st.IO.Series, results.IOSample{At: st.StartedAt.Add(time.Duration(10+s*20) * time.Second),
				IOFigures: results.IOFigures{ReadIOPS: st.IO.ReadIOPS * (0.9 + 0.1*float64(s)), WriteIOPS: st.IO.WriteIOPS}})
		}
		r.Steps = append(r.Steps, st)
	}
	r.FinishedAt = start.Add(time.Duration(len(users)) * time.Minute)
	return r
}
