package txn

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// Money is an amount in cents. Prices, charges, commissions and balances are exact
// decimals in the database; carrying them as integer cents keeps the client's
// arithmetic exact too (float64 would drift over a long run of ca_bal updates).
//
// It binds as a decimal string ("25.37"), which both PostgreSQL (text format) and SQL
// Server (implicit conversion) read exactly, and scans from any decimal column. Never
// bind a Money through a conversion to int64: that would be 100 times too large.
type Money int64

var (
	_ driver.Valuer         = Money(0)
	_ database.Cents        = Money(0)
	_ database.CentsScanner = (*Money)(nil)
)

// Cents and ScanCents let a database package bind and scan the amount without the
// decimal string (database.Cents).
func (m Money) Cents() int64 { return int64(m) }

func (m *Money) ScanCents(cents int64, null bool) { *m = Money(cents) }

// Value binds the amount as an exact decimal string.
func (m Money) Value() (driver.Value, error) { return m.String(), nil }

func (m Money) String() string {
	neg := m < 0
	v := int64(m)
	if neg {
		v = -v
	}
	s := fmt.Sprintf("%d.%02d", v/100, v%100)
	if neg {
		return "-" + s
	}
	return s
}

// Scan reads a decimal column: drivers hand numerics over as text (pgx's
// database/sql path, go-mssqldb) or as a number.
func (m *Money) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*m = 0
		return nil
	case string:
		return m.parse(v)
	case []byte:
		return m.parse(string(v))
	case int64:
		*m = Money(v * 100)
		return nil
	case float64:
		*m = centsOf(v)
		return nil
	}
	return fmt.Errorf("money: cannot scan %T", src)
}

// parse reads a decimal string exactly, rounding half away from zero at the cent.
func (m *Money) parse(s string) error {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" {
		whole = "0"
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return fmt.Errorf("money: %q is not a decimal", s)
	}
	frac += "000"
	f, err := strconv.ParseInt(frac[:2], 10, 64)
	if err != nil {
		return fmt.Errorf("money: %q is not a decimal", s)
	}
	c := w*100 + f
	if frac[2] >= '5' && frac[2] <= '9' {
		c++
	}
	if neg {
		c = -c
	}
	*m = Money(c)
	return nil
}

// centsOf rounds a float amount in currency units to cents.
func centsOf(v float64) Money {
	if v < 0 {
		return -Money(-v*100 + 0.5)
	}
	return Money(v*100 + 0.5)
}

// Rate is a decimal rate column (percent or fraction) scanned exactly enough for tax
// and commission arithmetic.
type Rate float64

var _ driver.Valuer = Rate(0)

func (r Rate) Value() (driver.Value, error) { return strconv.FormatFloat(float64(r), 'f', -1, 64), nil }

func (r *Rate) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*r = 0
		return nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		*r = Rate(f)
		return err
	case []byte:
		f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64)
		*r = Rate(f)
		return err
	case float64:
		*r = Rate(v)
		return nil
	case int64:
		*r = Rate(v)
		return nil
	}
	return fmt.Errorf("rate: cannot scan %T", src)
}

// commission is rate percent of qty x price, rounded to cents (docs/workload.md §9.7, frame 4).
func commission(rate Rate, qty int, price Money) Money {
	return centsOf(float64(rate) / 100 * float64(qty) * float64(price) / 100)
}
