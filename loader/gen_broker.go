package loader

import (
	"context"

	"github.com/brokerbench/brokerbench/schema"
)

// brokerJob writes a load unit's 10 brokers. Their trade counts and commission totals
// must equal the sums over their accounts' trades, which span the whole load unit;
// commission does not depend on holdings, so one pass over the unit's ordinals
// computes them without materialising any trade.
func brokerJob(ks *keyspace, lu int64) job {
	return job{kind: kindBroker, lu: lu, tables: []string{"broker"}, estimate: schema.BrokersPerLU,
		run: func(ctx context.Context, e *emitter) error {
			var count [schema.BrokersPerLU]int64
			var comm [schema.BrokersPerLU]int64
			d := newTradeDraws(ks, lu)
			first, last := d.ordinals()
			for o := first; o <= last; o++ {
				if schema.TradeOrdinalSkipped(o) {
					continue
				}
				cID, h := d.customer(o)
				t := d.spec(o, cID, h)
				b := schema.BrokerIndex(schema.AccountBroker(t.caID)) - lu*schema.BrokersPerLU
				count[b]++
				comm[b] += t.comm
				if o%8192 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
			}
			for i := int64(0); i < schema.BrokersPerLU; i++ {
				bID := schema.BrokerID(lu*schema.BrokersPerLU + i)
				w := e.row(0)
				w.Int64(bID)
				w.Text(schema.StatusActive)
				w.Text(schema.BrokerName(bID))
				w.Int32(int32(count[i]))
				w.Decimal(comm[i], 2)
				if err := e.end(ctx, 0); err != nil {
					return err
				}
			}
			return nil
		}}
}
