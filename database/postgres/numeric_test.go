package postgres

import (
	"math"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

type testCents int64

func (c testCents) Cents() int64 { return int64(c) }

// The direct encoder must write what pgx's numeric codec reads back as the same
// amount, for every size and sign an int64 of cents can hold.
func TestCentsEncodeReadsBackThroughPgx(t *testing.T) {
	m := pgtype.NewMap()
	for _, c := range []int64{0, 1, -1, 5, 10, 99, 100, 101, -100, 2537, 10000, 1000000, 1000001,
		123456789, -987654321012, 100000000, math.MaxInt64, math.MinInt64 + 1, math.MinInt64} {
		buf, err := centsEncodePlan{next: pgtype.NumericCodec{}.PlanEncode(m, pgtype.NumericOID, pgtype.BinaryFormatCode, centsArg{testCents(c)})}.
			Encode(centsArg{testCents(c)}, nil)
		if err != nil {
			t.Fatalf("encode %d: %v", c, err)
		}
		var n pgtype.Numeric
		if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, buf, &n); err != nil {
			t.Fatalf("pgx reading %d back: %v", c, err)
		}
		got, ok := numericCents(n.Int, n.Exp)
		if !ok || got != c {
			t.Errorf("cents %d encoded, pgx read %v x 10^%d (%d, %v)", c, n.Int, n.Exp, got, ok)
		}
	}
}

// The direct decoder must agree with the big-integer path (numericCents) on every
// numeric pgx writes, rounding included, and give way where that path is needed.
func TestBinaryNumericCentsAgreesWithPgx(t *testing.T) {
	m := pgtype.NewMap()
	for _, s := range []string{"0", "0.00", "1", "-1", "0.01", "-0.01", "25.37", "12.345", "12.344", "-12.345",
		"-0.005", "0.004", "1234.49", "10000", "10000.5", "99999999.99", "0.0001", "123.4550001",
		"92233720368547758.07", "-92233720368547758.07", "92233720368547758.08", "1000000000000000000000000000000", "123456789012345678901234",
		"0.00000000000000000001", "NaN", "Infinity"} {
		var n pgtype.Numeric
		if err := n.Scan(s); err != nil {
			t.Fatalf("numeric %s: %v", s, err)
		}
		buf, err := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, n, nil)
		if err != nil {
			t.Fatalf("encode %s: %v", s, err)
		}
		got, ok := binaryNumericCents(buf)
		var want int64
		wantOK := n.Valid && !n.NaN && n.InfinityModifier == pgtype.Finite && n.Int.IsInt64()
		if wantOK {
			want, wantOK = numericCents(n.Int, n.Exp)
		}
		if ok != wantOK || got != want {
			t.Errorf("%s: direct path %d, %v; big-integer path %d, %v", s, got, ok, want, wantOK)
		}
	}
}

// Through the codec the plans are chosen for amounts only, and NULL reaches the
// destination as null.
func TestCentsCodecPlans(t *testing.T) {
	m := pgtype.NewMap()
	m.RegisterType(&pgtype.Type{Name: "numeric", OID: pgtype.NumericOID, Codec: centsCodec{}})
	var got struct {
		cents int64
		null  bool
	}
	d := &centsDest{d: scanFunc(func(c int64, null bool) { got.cents, got.null = c, null })}
	if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, nil, d); err != nil || !got.null {
		t.Fatalf("NULL: err %v, null %v", err, got.null)
	}
	buf, err := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, centsArg{testCents(-2537)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, buf, d); err != nil || got.null || got.cents != -2537 {
		t.Fatalf("-25.37: err %v, got %d null %v", err, got.cents, got.null)
	}
	var f float64
	if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, buf, &f); err != nil || f != -25.37 {
		t.Fatalf("a float64 destination keeps pgx's path: %v, %v", f, err)
	}
}

type scanFunc func(int64, bool)

func (f scanFunc) ScanCents(c int64, null bool) { f(c, null) }
