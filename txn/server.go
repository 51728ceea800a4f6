package txn

import (
	"context"
	"encoding/json"
	"errors"
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
// rendered once per executor's database (renderCalls) and looked up by the
// transaction's Kind. A routine returns either one
// JSON document (the frames' outputs, decoded into the client mode's output value) or,
// with rows set, a result set the driver scans as client mode scans its statements'
// rows: that is for an output of many rows, whose JSON decoding would cost the
// driver more than the rows do (docs/workload.md §13).
type routine struct {
	name string
	args int
	rows bool
}

// Routines lists the routine of txn/routines/<database>.sql each transaction calls,
// by Kind, in catalogue order (the goldens and the install test walk it).
var Routines = [NumKinds]routine{
	BrokerVolume:     {name: "bb_broker_volume", args: 2},
	CustomerPosition: {name: "bb_customer_position", args: 4},
	MarketFeed:       {name: "bb_market_feed", args: 8},
	MarketWatch:      {name: "bb_market_watch", args: 7},
	SecurityDetail:   {name: "bb_security_detail", args: 4},
	TradeLookup:      {name: "bb_trade_lookup", args: 7},
	TradeOrder:       {name: "bb_trade_order", args: 18},
	TradeResult:      {name: "bb_trade_result", args: 5},
	TradeStatus:      {name: "bb_trade_status", args: 1, rows: true},
	TradeUpdate:      {name: "bb_trade_update", args: 7},
	DataMaintenance:  {name: "bb_data_maintenance", args: 12},
	TradeCleanup:     {name: "bb_trade_cleanup", args: 4},
}

// renderCalls renders every routine's call for the executor's database, once, so
// the per-transaction path only looks its call up; a database without server
// routines keeps the reason in callErr, returned by every call.
func (e *executor) renderCalls() {
	if msg := FramesUnavailableOn(e.db); msg != "" {
		e.callErr = errors.New(msg)
		return
	}
	s, _ := routineSetFor(e.db.Name())
	eng, err := database.Of(e.db)
	if err != nil {
		e.callErr = err
		return
	}
	for k, r := range Routines {
		e.calls[k] = eng.SQL(s.call(r))
	}
}

// call renders r's call in portable placeholders: a set-returning routine is called
// for its rows, any other for its one value.
func (s routineSet) call(r routine) string {
	if r.rows {
		return s.CallRows(r.name, r.args)
	}
	return s.Call(r.name, r.args)
}

// callRoutine runs one call of the transaction's routine (Routines[out.Kind]) as the whole of one database transaction at iso,
// retried from the start as inTx retries, and decodes the routine's JSON result into
// dst. A check the routine failed comes back as the client mode's CheckError, its
// intended rollback as RolledBack.
func (e *executor) callRoutine(ctx context.Context, out *Outcome, iso database.Isolation, dst any, args ...any) error {
	return e.callRoutineRows(ctx, out, iso, rowSink{scan: func(rows database.Rows) error {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		if err := json.Unmarshal(doc, dst); err != nil {
			return fmt.Errorf("decoding %s's result: %w", Routines[out.Kind].name, err)
		}
		return nil
	}}, args...)
}

// rowSink takes a routine's result rows: scan is handed each row; reset, when set, runs
// before every attempt (a retry starts from an empty output).
type rowSink struct {
	reset func()
	scan  func(database.Rows) error
}

// callRoutineRows runs one call of the transaction's routine as callRoutine does and hands each row of its
// result to sink. Where the database can, BEGIN, the call and COMMIT go in one round
// trip (database.Committer); read-only work runs without BEGIN as in client mode.
// Every routine returns at least one row: none is an error.
func (e *executor) callRoutineRows(ctx context.Context, out *Outcome, iso database.Isolation, sink rowSink, args ...any) error {
	if e.callErr != nil {
		return fmt.Errorf("%s: %w", out.Kind, e.callErr)
	}
	sql := e.calls[out.Kind]
	return e.attempts(out, func() error {
		if sink.reset != nil {
			sink.reset()
		}
		n := 0
		counted := func(rows database.Rows) error {
			n++
			return sink.scan(rows)
		}
		err := e.db.InTx(ctx, iso, func(tx database.Tx) error {
			out.Statements++
			if cm, ok := tx.(database.Committer); ok {
				return cm.PipelineCommit(ctx, []database.Queued{{SQL: sql, Args: args, Scan: counted}})
			}
			rows, err := tx.Query(ctx, sql, args...)
			return database.ScanQueued(rows, err, counted)
		})
		if frame, what, ok := database.RoutineCheck(err); ok {
			return checkf(out.Kind, frame, "%s", what)
		}
		if err == nil && n == 0 {
			return fmt.Errorf("%s returned no row", Routines[out.Kind].name)
		}
		return err
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
