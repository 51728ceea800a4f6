package txn

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

// Frames says where a transaction's frames run (docs/workload.md §13).
type Frames string

const (
	// ClientFrames sends each frame's statements from the driver (the default).
	ClientFrames Frames = "client"
	// ServerFrames calls one server routine per transaction (per ticker entry for
	// Market-Feed) that runs the same statements inside the database.
	ServerFrames Frames = "server"
)

// ParseFrames reads a --frames value; "" is the default, client.
func ParseFrames(s string) (Frames, error) {
	switch Frames(s) {
	case "", ClientFrames:
		return ClientFrames, nil
	case ServerFrames:
		return ServerFrames, nil
	}
	return "", fmt.Errorf("frames %q: want client or server", s)
}

// WithFrames makes the executor run its transactions' frames where f says. Server
// frames need the routines installed (EnsureRoutines).
func WithFrames(f Frames) Option { return func(e *executor) { e.server = f == ServerFrames } }

// routine names one server routine and how many parameters it takes; its call is
// rendered once per executor's database (renderCalls).
type routine struct {
	name string
	args int
}

// The routines of txn/routines/<database>.sql, one per transaction.
var (
	brokerVolumeRoutine     = routine{"bb_broker_volume", 2}
	customerPositionRoutine = routine{"bb_customer_position", 4}
	marketFeedRoutine       = routine{"bb_market_feed", 8}
	marketWatchRoutine      = routine{"bb_market_watch", 7}
	securityDetailRoutine   = routine{"bb_security_detail", 4}
	tradeLookupRoutine      = routine{"bb_trade_lookup", 7}
	tradeOrderRoutine       = routine{"bb_trade_order", 18}
	tradeResultRoutine      = routine{"bb_trade_result", 5}
	tradeStatusRoutine      = routine{"bb_trade_status", 1}
	tradeUpdateRoutine      = routine{"bb_trade_update", 7}
	dataMaintenanceRoutine  = routine{"bb_data_maintenance", 12}
	tradeCleanupRoutine     = routine{"bb_trade_cleanup", 4}
)

// Routines lists every routine the transactions call, in catalogue order (the goldens
// and the install test walk it).
var Routines = [NumKinds]routine{
	BrokerVolume: brokerVolumeRoutine, CustomerPosition: customerPositionRoutine, MarketFeed: marketFeedRoutine,
	MarketWatch: marketWatchRoutine, SecurityDetail: securityDetailRoutine, TradeLookup: tradeLookupRoutine,
	TradeOrder: tradeOrderRoutine, TradeResult: tradeResultRoutine, TradeStatus: tradeStatusRoutine,
	TradeUpdate: tradeUpdateRoutine, DataMaintenance: dataMaintenanceRoutine, TradeCleanup: tradeCleanupRoutine,
}

// renderCalls renders every routine's call for the executor's database, once, so
// the per-transaction path only looks its call up; a database without server
// routines keeps the reason in callErr, returned by every call.
func (e *executor) renderCalls() {
	s, ok := routineSetFor(e.db.Name())
	if !ok {
		e.callErr = fmt.Errorf("%s", FramesUnavailable(e.db.Name()))
		return
	}
	eng, err := database.Of(e.db)
	if err != nil {
		e.callErr = err
		return
	}
	e.calls = make(map[string]string, len(Routines))
	for _, r := range Routines {
		e.calls[r.name] = eng.SQL(s.Call(r.name, r.args))
	}
}

// callRoutine runs one call of r as the whole of one database transaction at iso,
// retried from the start as inTx retries, and decodes the routine's JSON result into
// dst. Where the database can, BEGIN, the call and COMMIT go in one round trip
// (database.Committer); read-only work runs without BEGIN as in client mode. A check
// the routine failed comes back as the client mode's CheckError, its intended
// rollback as RolledBack.
func (e *executor) callRoutine(ctx context.Context, out *Outcome, iso database.Isolation, r routine, dst any, args ...any) error {
	if e.callErr != nil {
		return fmt.Errorf("%s: %w", out.Kind, e.callErr)
	}
	sql := e.calls[r.name]
	return e.attempts(out, func() error {
		var doc string
		err := e.db.InTx(ctx, iso, func(tx database.Tx) error {
			out.Statements++
			if cm, ok := tx.(database.Committer); ok {
				return cm.PipelineCommit(ctx, []database.Queued{{SQL: sql, Args: args, Scan: func(r database.Rows) error {
					return r.Scan(&doc)
				}}})
			}
			return tx.QueryRow(ctx, sql, args...).Scan(&doc)
		})
		if frame, what, ok := database.RoutineCheck(err); ok {
			return checkf(out.Kind, frame, "%s", what)
		}
		if err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(doc), dst); err != nil {
			return fmt.Errorf("decoding %s's result: %w", r.name, err)
		}
		return nil
	})
}

// MarshalJSON writes the amount as the exact decimal number UnmarshalJSON reads.
func (m Money) MarshalJSON() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalJSON reads an amount from a routine's JSON result: a decimal number, as
// the database renders a numeric, exactly.
func (m *Money) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*m = 0
		return nil
	}
	if len(s) >= 2 && s[0] == '"' {
		s = s[1 : len(s)-1]
	}
	return m.parse(s)
}
