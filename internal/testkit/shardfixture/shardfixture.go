// Package shardfixture builds a sharded run the way the driver records one, for the
// tests of merge and of the reports that read a merged file.
package shardfixture

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/merge"
	"github.com/brokerbench/brokerbench/results/record"
)

// ShardFixture is a sharded run recorded the way the driver records one: every
// shard's steps come from its own Recorder, and the same transactions are recorded
// by one more Recorder, union, as one driver running every shard's users would
// have: merged figures must equal union's.
type ShardFixture struct {
	Shards []results.Input
	Union  *results.Run
}

var Start = time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)

// Txns mix writing and read-only types, so commits differ from transactions.
var Txns = []string{"Trade-Order", "Trade-Result", "Market-Feed", "Trade-Status"}

// RecordedShards builds n shard files of a run with the given user levels (shard k
// runs users[i]+k users at step i, so users differ per shard).
func RecordedShards(n int, users []int) ShardFixture {
	startAt := Start
	lims := runfixture.Workload().DefaultLimits().Record()
	fx := ShardFixture{Union: &results.Run{Format: results.FormatVersion, Label: "sharded", Seed: 7, Scale: results.Scale{Customers: 1000, TradeDays: 5},
		Database: results.Database{Product: "PostgreSQL", Version: "15.8"}, StartedAt: Start, Limits: lims}}
	unionRecs := make([]*record.Recorder, len(users))
	for i := range users {
		unionRecs[i] = record.NewRecorder(Start)
	}
	for k := 0; k < n; k++ {
		rng := rand.New(rand.NewPCG(uint64(k), 99))
		r := &results.Run{
			Format: results.FormatVersion, Label: "sharded", Tags: map[string]string{"controller": "H810"},
			Database: results.Database{Product: "PostgreSQL", Version: "15.8", SizeBytes: 1 << 30},
			Scale:    results.Scale{Customers: 1000, TradeDays: 5}, Seed: 7,
			Options: map[string]any{"shard": fmt.Sprintf("%d/%d", k, n), "users": "2,4", "start-at": startAt.Format(time.RFC3339)},
			Tool:    "brokerbench test", StartedAt: Start.Add(time.Duration(k) * time.Millisecond),
			FinishedAt: Start.Add(time.Duration(len(users))*time.Minute + time.Duration(k)*time.Millisecond),
			Limits:     lims, StartAt: &startAt,
			Shard: &results.Shard{Index: k, Count: n, ClockOffsetMS: 0.25 * float64(k)},
		}
		for i, u := range users {
			rec := record.NewRecorder(Start)
			h, uh := rec.Handle(), unionRecs[i].Handle()
			for j, name := range Txns {
				for v := 0; v < 40*(k+1)*(i+1)/(j+1); v++ {
					resp := time.Duration(float64(j+1) * float64(u) * rng.ExpFloat64() * float64(time.Millisecond))
					o := record.Outcome{Retries: v % 7 / 6, RolledBack: name == "Trade-Order" && v%50 == 0, Failed: v%97 == 96}
					h.Record(name, resp, resp*4/5, o)
					uh.Record(name, resp, resp*4/5, o)
				}
			}
			txns, _ := rec.Window()
			measured := 50 + 0.01*float64(k) // each driver's timer fires a little apart
			st := results.Step{Users: u + k, StartedAt: Start.Add(time.Duration(i)*time.Minute + time.Duration(k)*time.Millisecond),
				WarmupS: 10, MeasuredS: measured, Statements: int64(1000 * (k + 1)), Transactions: txns,
				Lag:    results.Lag{Late: int64(k), MaxMS: float64(3 * k), AvgMS: float64(k)},
				Driver: results.DriverCheck{CPUPercent: 20 + float64(k), GCPauseMS: 1, PoolWaits: int64(k)},
			}
			total := merge.TxnCount(txns)
			st.TPS = results.Round(float64(total)/measured, 2)
			st.TPSE = results.Round(float64(txns["Trade-Result"].Count)/measured, 2)
			if k == 1 {
				st.Faults = &results.Faults{ConnectionsLost: 1, Reconnects: 1, ByClass: map[string]int64{"connection": 1}}
			}
			st.IO = &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: 100 + float64(k), WriteIOPS: 50, QueueDepth: 1},
				IOPerTxn: 150 * measured / float64(total), WALBytesPerCommit: 8192,
				Series: []results.IOSample{{At: st.StartedAt.Add(20 * time.Second), IOFigures: results.IOFigures{ReadIOPS: 100}}}}
			st.IO.PerTxn(measured, total)
			hit := 0.95 - 0.01*float64(k)
			st.CacheHitRatio = &hit
			st.Steadiness = &results.Steadiness{Seconds: 50, TPSCV: 0.05 * float64(k+1), HalfChange: 0.01 * float64(k)}
			figures.SetNominal(&st, r.Scale.Customers)
			st.LimitsBroken = []string{"stale, recomputed by merge"}
			r.Steps = append(r.Steps, st)
		}
		figures.SetStepFlags(r)
		fx.Shards = append(fx.Shards, results.Input{Path: filepath.Join("out", fmt.Sprintf("shard-%d.json", k)), Run: r})
	}
	for i, u := range users {
		txns, _ := unionRecs[i].Window()
		fx.Union.Steps = append(fx.Union.Steps, results.Step{Users: n*u + n*(n-1)/2, StartedAt: Start.Add(time.Duration(i) * time.Minute),
			WarmupS: 10, MeasuredS: 50, Transactions: txns,
			TPS: results.Round(float64(merge.TxnCount(txns))/50, 2), TPSE: results.Round(float64(txns["Trade-Result"].Count)/50, 2)})
	}
	return fx
}
