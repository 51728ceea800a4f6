package postgres

import (
	"math/big"
	"testing"
)

// numericCents must round exactly as txn.Money's decimal parser does: half away
// from zero on the third decimal digit.
func TestNumericCents(t *testing.T) {
	for _, tc := range []struct {
		i    int64
		exp  int32
		want int64
		ok   bool
	}{
		{2537, -2, 2537, true},
		{25, 0, 2500, true},
		{3, 2, 30000, true},
		{12345, -3, 1235, true},   // 12.345 -> 12.35
		{12344, -3, 1234, true},   // 12.344 -> 12.34
		{-12345, -3, -1235, true}, // away from zero
		{-5, -3, -1, true},        // -0.005 -> -0.01
		{123449, -4, 1234, true},  // only the third digit counts
		{0, -30, 0, false},        // beyond int64 scaling: the string path decides
		{1 << 62, 0, 0, false},    // overflows at the cent
	} {
		got, ok := numericCents(big.NewInt(tc.i), tc.exp)
		if got != tc.want || ok != tc.ok {
			t.Errorf("numericCents(%d, %d) = %d, %v; want %d, %v", tc.i, tc.exp, got, ok, tc.want, tc.ok)
		}
	}
}
