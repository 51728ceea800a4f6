package txn

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
)

// Broker-Volume (tpce.md §6.1): the value of pending limit orders per broker, for a
// list of brokers, in one sector. Read-only, read committed.

// BrokerVolumeRow is one broker's pending volume.
type BrokerVolumeRow struct {
	Broker string
	Volume Money
}

func (e *executor) brokerVolume(ctx context.Context, in BrokerVolumeInput) (Outcome, error) {
	o, _, err := e.brokerVolumeRun(ctx, in)
	return o, err
}

func (e *executor) brokerVolumeRun(ctx context.Context, in BrokerVolumeInput) (Outcome, []BrokerVolumeRow, error) {
	out := Outcome{Kind: BrokerVolume}
	var res []BrokerVolumeRow
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = nil
		return e.bvFrame1(ctx, tx, in, &res)
	})
	return out, res, err
}

// bvFrame1 joins TRADE_REQUEST with BROKER, SECURITY, COMPANY, INDUSTRY and SECTOR.
// The broker list binds as MaxBrokerList parameters so the statement text is fixed
// (and cached); unused slots repeat the first name, which changes nothing in an IN
// list.
func (e *executor) bvFrame1(ctx context.Context, tx database.Tx, in BrokerVolumeInput, res *[]BrokerVolumeRow) error {
	if len(in.BrokerNames) == 0 || len(in.BrokerNames) > MaxBrokerList {
		return checkf(BrokerVolume, 1, "%d broker names, want 1-%d", len(in.BrokerNames), MaxBrokerList)
	}
	args := make([]any, 0, MaxBrokerList+1)
	args = append(args, in.SectorName)
	for i := 0; i < MaxBrokerList; i++ {
		args = append(args, in.BrokerNames[min(i, len(in.BrokerNames)-1)])
	}
	rows, err := tx.Query(ctx, e.sql.BrokerVolume, args...)
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
	if len(*res) > len(in.BrokerNames) {
		return checkf(BrokerVolume, 1, "%d brokers returned for %d asked", len(*res), len(in.BrokerNames))
	}
	for i := 1; i < len(*res); i++ {
		if (*res)[i].Volume > (*res)[i-1].Volume {
			return checkf(BrokerVolume, 1, "volumes not in descending order")
		}
	}
	return nil
}
