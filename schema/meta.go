package schema

// Tables of brokerbench itself, next to the 33 of the workload. They are rendered by
// the same DDL and dropped with the schema.

// Names of brokerbench's own objects.
const (
	// LoadMarkerTable holds one row describing the load (scale, seed, generator
	// version) and whether it completed; later commands read scale and seed from it.
	LoadMarkerTable = "bb_load"
	// OpeningBalanceTable holds each account's balance before the generated trades, so
	// `check` can verify ca_bal = opening balance + sum of the account's ct_amt after a
	// load and after runs (run-time cash transactions keep the rule true).
	OpeningBalanceTable = "bb_opening_balance"
	// TradeIDSequence gives run-time Trade-Orders their ids, starting above the loaded
	// ones (Scale.FirstRunTradeID).
	TradeIDSequence = "seq_trade_id"
)

// MetaTables returns brokerbench's own tables.
func MetaTables() []Table {
	return []Table{
		{Name: LoadMarkerTable, PrimaryKey: cols("load_id"), Columns: []Column{
			notNull("load_id", Small), notNull("customers", Ident), notNull("trade_days", Int), notNull("seed", Ident),
			notNull("generator_version", Int), notNull("started_at", TS), nullable("completed_at", TS),
			notNull("tool_version", VC(40)), notNull("workers", Int)}},
		{Name: OpeningBalanceTable, PrimaryKey: cols("ca_id"), Columns: []Column{
			notNull("ca_id", Ident), notNull("bal", Balance)}},
	}
}
