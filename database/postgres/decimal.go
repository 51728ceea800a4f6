package postgres

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math/big"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/brokerbench/brokerbench/database"
)

// Amounts in cents (database.Cents) go to and from numeric columns as pgx Numerics:
// the default path (driver.Valuer's decimal string parsed into a big integer, and
// numeric rendered as text for sql.Scanner to parse back) was the driver's largest
// cost after the round trips themselves. Either wrapper keeps the value's own
// driver.Valuer or sql.Scanner for any column that is not numeric, so what is bound
// and read is unchanged.

// centsArg binds a database.Cents as numeric with two decimal places.
type centsArg struct{ v database.Cents }

func (a centsArg) NumericValue() (pgtype.Numeric, error) {
	return pgtype.Numeric{Int: big.NewInt(a.v.Cents()), Exp: -2, Valid: true}, nil
}

func (a centsArg) Value() (driver.Value, error) {
	if v, ok := a.v.(driver.Valuer); ok {
		return v.Value()
	}
	return a.v.Cents(), nil
}

// withCents returns args with every database.Cents wrapped; args itself when there is
// none, so statements without amounts allocate nothing.
func withCents(args []any) []any {
	for i, a := range args {
		if _, ok := a.(database.Cents); ok {
			out := make([]any, len(args))
			copy(out, args[:i])
			for j := i; j < len(args); j++ {
				out[j] = args[j]
				if c, ok := args[j].(database.Cents); ok {
					out[j] = centsArg{c}
				}
			}
			return out
		}
	}
	return args
}

// centsDest scans a numeric column into a database.CentsScanner.
type centsDest struct{ d database.CentsScanner }

func (c *centsDest) ScanNumeric(n pgtype.Numeric) error {
	if !n.Valid {
		c.d.ScanCents(0, true)
		return nil
	}
	if n.NaN || n.InfinityModifier != pgtype.Finite {
		return fmt.Errorf("money: %s is not a finite decimal", numericText(n))
	}
	if cents, ok := numericCents(n.Int, n.Exp); ok {
		c.d.ScanCents(cents, false)
		return nil
	}
	// Beyond int64 at the cent: the decimal-string path says what is wrong.
	return c.Scan(numericText(n))
}

// Scan serves the columns that are not numeric through the destination's own
// sql.Scanner.
func (c *centsDest) Scan(src any) error {
	if s, ok := c.d.(sql.Scanner); ok {
		return s.Scan(src)
	}
	return fmt.Errorf("money: cannot scan %T", src)
}

func numericText(n pgtype.Numeric) string {
	v, err := n.Value()
	if s, ok := v.(string); ok && err == nil {
		return s
	}
	return "?"
}

var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// numericCents is i x 10^exp in cents, rounded half away from zero at the cent (as
// txn.Money's decimal parser rounds); ok is false when it does not fit an int64.
func numericCents(i *big.Int, exp int32) (int64, bool) {
	if !i.IsInt64() {
		return 0, false
	}
	v := i.Int64()
	if exp >= -2 {
		k := int(exp) + 2
		if k >= len(pow10) {
			return 0, v == 0
		}
		c := v * pow10[k]
		if v != 0 && c/v != pow10[k] {
			return 0, false
		}
		return c, true
	}
	k := int(-exp) - 2 // digits below the cent
	if k >= len(pow10) {
		return 0, false
	}
	q, r := v/pow10[k], v%pow10[k]
	if r < 0 {
		r = -r
	}
	if r/pow10[k-1] >= 5 {
		if v < 0 {
			q--
		} else {
			q++
		}
	}
	return q, true
}

// withCentsDests returns dest with every database.CentsScanner wrapped; dest itself
// when there is none.
func withCentsDests(dest []any) []any {
	for i, d := range dest {
		if _, ok := d.(database.CentsScanner); ok {
			out := make([]any, len(dest))
			copy(out, dest[:i])
			for j := i; j < len(dest); j++ {
				out[j] = dest[j]
				if c, ok := dest[j].(database.CentsScanner); ok {
					out[j] = &centsDest{c}
				}
			}
			return out
		}
	}
	return dest
}

// centsScratch wraps a row's amounts for pgx without allocating per row: the rows of
// one query reuse its slices (a list of fifty trades scans fifty rows).
type centsScratch struct {
	dests []any
	cents []centsDest
}

// wrap is withCentsDests into s's slices; valid until the next call.
func (s *centsScratch) wrap(dest []any) []any {
	n := 0
	for _, d := range dest {
		if _, ok := d.(database.CentsScanner); ok {
			n++
		}
	}
	if n == 0 {
		return dest
	}
	if cap(s.cents) < n {
		s.cents = make([]centsDest, n)
	}
	s.cents = s.cents[:n]
	s.dests = s.dests[:0]
	k := 0
	for _, d := range dest {
		if c, ok := d.(database.CentsScanner); ok {
			s.cents[k] = centsDest{c}
			d = &s.cents[k]
			k++
		}
		s.dests = append(s.dests, d)
	}
	return s.dests
}
