// Package schema is the brokerage model as data: the 33 tables of the TPC-E-like
// workload with logical column types, keys and post-load indexes, and the key space
// (ids, tiers, baskets, prices, time base) that the loader and the transactions both
// derive their keys from, so the two can never disagree. No SQL lives here; the
// dialects render it.
package schema

// Kind is a logical column type; dialects map it to their own types.
type Kind uint8

const (
	Int16 Kind = iota + 1
	Int32
	Int64
	Decimal // Precision, Scale
	Varchar // Length
	Date
	Timestamp
	Bool
	LOB // large text (news items, up to 100 KB)
)

// Type is a column's logical type.
type Type struct {
	Kind      Kind
	Length    int // Varchar
	Precision int // Decimal
	Scale     int // Decimal
}

// Meta-types of the reference (docs/workload.md §2.1); money widened as DBT-5 did.
var (
	Ident   = Type{Kind: Int64}                            // IDENT_T
	TradeT  = Type{Kind: Int64}                            // TRADE_T
	SCount  = Type{Kind: Int64}                            // S_COUNT_T
	SQty    = Type{Kind: Int32}                            // S_QTY_T
	SPrice  = Type{Kind: Decimal, Precision: 12, Scale: 2} // S_PRICE_T; (8,2) overflows in Trade-Order frame 3
	Value   = Type{Kind: Decimal, Precision: 10, Scale: 2} // VALUE_T
	Balance = Type{Kind: Decimal, Precision: 12, Scale: 2} // BALANCE_T
	FinAgg  = Type{Kind: Decimal, Precision: 15, Scale: 2} // FIN_AGG_T
	Int     = Type{Kind: Int32}
	Small   = Type{Kind: Int16}
	DateT   = Type{Kind: Date}
	TS      = Type{Kind: Timestamp}
	Boolean = Type{Kind: Bool}
	Blob    = Type{Kind: LOB}
)

// VC is a VARCHAR(n).
func VC(n int) Type { return Type{Kind: Varchar, Length: n} }

// Dec is a NUMERIC(p,s).
func Dec(p, s int) Type { return Type{Kind: Decimal, Precision: p, Scale: s} }

// Class says how a table grows (docs/workload.md §2.2).
type Class uint8

const (
	Fixed   Class = iota + 1 // same rows at every scale
	Scaling                  // proportional to customers
	Growing                  // grows with trade days and at run time
)

// Column is one column of a table.
type Column struct {
	Name     string
	Type     Type
	Nullable bool
}

// Index is a secondary index, created after the data is in.
type Index struct {
	Name    string
	Columns []string
	Unique  bool
}

// ForeignKey is created after the data is in.
type ForeignKey struct {
	Columns    []string
	RefTable   string
	RefColumns []string
}

// Table is one table of the model.
type Table struct {
	Name        string // lower case, as in the reference
	Class       Class
	Columns     []Column
	PrimaryKey  []string
	Indexes     []Index
	ForeignKeys []ForeignKey
	// FillFactor, when set, spreads a tiny hot table over pages so the planner uses its
	// index and SSI takes row rather than relation locks (docs/workload.md §2.3).
	FillFactor int
}

// ColumnNames returns the table's column names in order.
func (t Table) ColumnNames() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}
