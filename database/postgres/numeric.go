package postgres

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// centsCodec is pgx's numeric codec with a direct path for amounts in cents: a
// centsArg is written, and a centsDest read, as PostgreSQL's binary numeric (base
// 10,000 digits) straight from and to an int64. pgx's own path goes through a
// big.Int each way, two allocations and a division per amount, and amounts are in
// nearly every row the workload reads. Anything else, and any amount beyond int64 at
// the cent, takes pgx's path unchanged.
type centsCodec struct{ pgtype.NumericCodec }

// registerCents installs centsCodec for numeric on a new connection.
func registerCents(_ context.Context, c *pgx.Conn) error {
	c.TypeMap().RegisterType(&pgtype.Type{Name: "numeric", OID: pgtype.NumericOID, Codec: centsCodec{}})
	return nil
}

func (c centsCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	if _, ok := value.(centsArg); ok && format == pgtype.BinaryFormatCode {
		return centsEncodePlan{next: c.NumericCodec.PlanEncode(m, oid, format, value)}
	}
	return c.NumericCodec.PlanEncode(m, oid, format, value)
}

func (c centsCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if _, ok := target.(*centsDest); ok && format == pgtype.BinaryFormatCode {
		return centsScanPlan{next: c.NumericCodec.PlanScan(m, oid, format, target)}
	}
	return c.NumericCodec.PlanScan(m, oid, format, target)
}

// The sign word of PostgreSQL's binary numeric.
const (
	numericPos = 0x0000
	numericNeg = 0x4000
)

type centsEncodePlan struct{ next pgtype.EncodePlan }

// Encode writes cents as a numeric with two decimal places: the whole part in base
// 10,000 digits, then the cents as one fractional digit (cents x 100) when not zero.
func (p centsEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	v := value.(centsArg).v.Cents()
	if v == math.MinInt64 {
		return p.next.Encode(value, buf) // no absolute value in int64
	}
	sign := uint16(numericPos)
	if v < 0 {
		sign, v = numericNeg, -v
	}
	whole, frac := v/100, v%100
	var digits [6]int16 // int64 / 100 has at most 17 decimal digits: 5 groups
	n := 0
	for w := whole; w > 0; w /= 10000 {
		n++
	}
	weight := n - 1
	for i, w := n-1, whole; i >= 0; i, w = i-1, w/10000 {
		digits[i] = int16(w % 10000)
	}
	if frac != 0 {
		if n == 0 {
			weight = -1
		}
		digits[n] = int16(frac * 100)
		n++
	}
	// Trailing zero digits of the whole part say nothing: PostgreSQL drops them too.
	for n > 0 && digits[n-1] == 0 {
		n--
	}
	if n == 0 {
		weight, sign = 0, numericPos
	}
	buf = binary.BigEndian.AppendUint16(buf, uint16(n))
	buf = binary.BigEndian.AppendUint16(buf, uint16(int16(weight)))
	buf = binary.BigEndian.AppendUint16(buf, sign)
	buf = binary.BigEndian.AppendUint16(buf, 2) // display scale: two places
	for _, d := range digits[:n] {
		buf = binary.BigEndian.AppendUint16(buf, uint16(d))
	}
	return buf, nil
}

type centsScanPlan struct{ next pgtype.ScanPlan }

func (p centsScanPlan) Scan(src []byte, target any) error {
	d := target.(*centsDest)
	if src == nil {
		d.d.ScanCents(0, true)
		return nil
	}
	if cents, ok := binaryNumericCents(src); ok {
		d.d.ScanCents(cents, false)
		return nil
	}
	return p.next.Scan(src, target) // NaN, infinities, beyond int64, malformed
}

// binaryNumericCents reads a binary numeric as cents, rounded half away from zero at
// the cent as numericCents rounds; ok is false for NaN, the infinities, a value that
// does not fit an int64 and malformed input.
func binaryNumericCents(src []byte) (int64, bool) {
	if len(src) < 8 {
		return 0, false
	}
	n := int(binary.BigEndian.Uint16(src))
	weight := int(int16(binary.BigEndian.Uint16(src[2:])))
	sign := binary.BigEndian.Uint16(src[4:])
	if (sign != numericPos && sign != numericNeg) || len(src) != 8+2*n {
		return 0, false
	}
	var cents int64
	roundUp := false
	for i := 0; i < n; i++ {
		d := int64(binary.BigEndian.Uint16(src[8+2*i:]))
		if d >= 10000 {
			return 0, false
		}
		switch e := weight - i; {
		case e >= 0:
			if d == 0 {
				continue
			}
			if e > 4 || d > math.MaxInt64/pow10[4*e+2] { // 10^(4e+2) cents per unit of d
				return 0, false
			}
			c := d * pow10[4*e+2]
			if cents > math.MaxInt64-c {
				return 0, false
			}
			cents += c
		case e == -1: // four decimals: two of cents, then the digit that rounds
			if cents > math.MaxInt64-d/100 {
				return 0, false
			}
			cents += d / 100
			roundUp = d%100 >= 50
		}
		// e <= -2: below the rounding digit; no effect.
	}
	if roundUp {
		if cents == math.MaxInt64 {
			return 0, false
		}
		cents++
	}
	if sign == numericNeg {
		cents = -cents
	}
	return cents, true
}
