package txn

import (
	"context"
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Broker-Volume (docs/workload.md §9.1): the value of pending limit orders per broker, for a
// list of brokers, in one sector. Read-only, read committed.

// BrokerVolumeInput: docs/workload.md §7.3.
type BrokerVolumeInput struct {
	BrokerNames []string
	SectorName  string
}

// MaxBrokerList is the most broker names Broker-Volume passes; the statement binds
// exactly this many (unused slots repeat a name) so the SQL stays one fixed text.
const MaxBrokerList = 40

// BrokerVolume draws Broker-Volume's inputs.
func (g *Gen) BrokerVolume() BrokerVolumeInput {
	n := int(g.r.Between(20, MaxBrokerList))
	if b := int(g.sc.Brokers()); n > b {
		n = b // below 4 load units there are fewer than 20 brokers
	}
	// Partial shuffle of broker indexes: n distinct brokers, uniform.
	total := g.sc.Brokers()
	picked := make(map[int64]bool, n)
	in := BrokerVolumeInput{SectorName: schema.Sectors[g.r.IntN(len(schema.Sectors))]}
	for len(in.BrokerNames) < n {
		b := g.r.Int64N(total)
		if picked[b] {
			continue
		}
		picked[b] = true
		in.BrokerNames = append(in.BrokerNames, schema.BrokerName(schema.BrokerID(b)))
	}
	return in
}

// BrokerVolumeRow is one broker's pending volume.
type BrokerVolumeRow struct {
	Broker string
	Volume Money
}

// runBrokerVolume runs Broker-Volume on the worker's next inputs (its catalogue row).
func (e *executor) runBrokerVolume(ctx context.Context) (Outcome, error) {
	o, _, err := e.brokerVolumeRun(ctx, e.gen.BrokerVolume())
	return o, err
}

func (e *executor) brokerVolumeRun(ctx context.Context, in BrokerVolumeInput) (Outcome, []BrokerVolumeRow, error) {
	out := Outcome{Kind: BrokerVolume}
	var res []BrokerVolumeRow
	if e.server {
		err := e.bvServer(ctx, &out, in, &res)
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = nil
		return e.bvBrokerVolumes(ctx, tx, in, &res)
	})
	return out, res, err
}

// bvBrokerVolumes is Broker-Volume frame 1: it joins TRADE_REQUEST with BROKER,
// SECURITY, COMPANY, INDUSTRY and SECTOR. The broker list binds as MaxBrokerList
// parameters so the statement text is fixed (and cached); unused slots repeat the first
// name, which changes nothing in an IN list.
func (e *executor) bvBrokerVolumes(ctx context.Context, tx database.Tx, in BrokerVolumeInput, res *[]BrokerVolumeRow) error {
	if err := bvInputCheck(in); err != nil {
		return err
	}
	args := make([]any, 0, MaxBrokerList+1)
	args = append(args, in.SectorName)
	for i := 0; i < MaxBrokerList; i++ {
		args = append(args, in.BrokerNames[min(i, len(in.BrokerNames)-1)])
	}
	rows, err := tx.Query(ctx, e.sql.of(brokerVolumeSQL), args...)
	err = scanRows(rows, err, func(r database.Rows) error {
		var b BrokerVolumeRow
		if err := r.Scan(&b.Broker, &b.Volume); err != nil {
			return err
		}
		*res = append(*res, b)
		return nil
	})
	if err != nil {
		return frameErr(BrokerVolume, 1, "volume", err)
	}
	return bvCheck(in, *res)
}

// bvInputCheck is frame 1's check of the broker list, in either frame mode.
func bvInputCheck(in BrokerVolumeInput) error {
	if len(in.BrokerNames) == 0 || len(in.BrokerNames) > MaxBrokerList {
		return checkf(BrokerVolume, 1, "%d broker names, want 1-%d", len(in.BrokerNames), MaxBrokerList)
	}
	return nil
}

// bvCheck is frame 1's output check, in either frame mode.
func bvCheck(in BrokerVolumeInput, res []BrokerVolumeRow) error {
	if len(res) > len(in.BrokerNames) {
		return checkf(BrokerVolume, 1, "%d brokers returned for %d asked", len(res), len(in.BrokerNames))
	}
	for i := 1; i < len(res); i++ {
		if res[i].Volume > res[i-1].Volume {
			return checkf(BrokerVolume, 1, "volumes not in descending order")
		}
	}
	return nil
}

// bvServer runs frame 1 as one call of its server routine; the broker list goes as
// one array.
func (e *executor) bvServer(ctx context.Context, out *Outcome, in BrokerVolumeInput, res *[]BrokerVolumeRow) error {
	if err := bvInputCheck(in); err != nil {
		return err
	}
	if err := e.callRoutine(ctx, out, database.ReadOnlyCommitted, res, in.SectorName, in.BrokerNames); err != nil {
		return err
	}
	return bvCheck(in, *res)
}

// Broker-Volume's statements, in the order its frames run them.
var (
	brokerVolumeSQL = BrokerVolume.statement("BrokerVolume", `SELECT b_name, SUM(tr_qty * tr_bid_price) AS volume
FROM trade_request, sector, industry, company, broker, security
WHERE tr_b_id = b_id AND tr_s_symb = s_symb AND s_co_id = co_id AND co_in_id = in_id
  AND sc_id = in_sc_id AND sc_name = $1 AND b_name IN (`+placeholders(2, MaxBrokerList)+`)
GROUP BY b_name
ORDER BY volume DESC`)
)

// placeholders returns "$from, ..., $(from+n-1)".
func placeholders(from, n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("$%d", from+i)
	}
	return strings.Join(p, ", ")
}
