package schema

import (
	"strconv"
	"strings"
)

// Key-space inverses the transactions need (owned by the txn package's author).

// symbolSpace and symbolMul mirror Symbol's bijection: v = (index*symbolMul + 12345)
// mod 26^4. symbolMul is prime and shares no factor with 26^4 = 2^4 x 13^4, so the map
// is invertible.
const (
	symbolSpace = 26 * 26 * 26 * 26
	symbolMul   = 7919
	symbolAdd   = 12345
)

var symbolMulInv = modInverse64(symbolMul, symbolSpace)

func modInverse64(a, m int64) int64 {
	// Extended Euclid: m is too large for modInverse's linear search.
	t, newT, r, newR := int64(0), int64(1), m, a%m
	for newR != 0 {
		q := r / newR
		t, newT = newT, t-q*newT
		r, newR = newR, r-q*newR
	}
	if t < 0 {
		t += m
	}
	return t
}

// SymbolIndex returns the security index of a symbol made by Symbol; ok is false for
// a string Symbol never returns. Market-Feed needs it to hand released limit orders
// back to the exchange emulator, which prices them on the security's wave.
func SymbolIndex(sym string) (int64, bool) {
	base, suffix, hasSuffix := strings.Cut(sym, "-")
	var block int64
	if hasSuffix {
		n, err := strconv.ParseInt(suffix, 10, 64)
		if err != nil || n <= 0 {
			return 0, false
		}
		block = n
	}
	// A common stock's four letters may themselves end in "PR"; only a six-letter
	// base carries the preferred-issue suffix.
	pref := len(base) == 6 && strings.HasSuffix(base, "PR")
	letters := base
	if pref {
		letters = base[:4]
	}
	if len(letters) != 4 {
		return 0, false
	}
	var v int64
	for i := 0; i < 4; i++ {
		c := letters[i]
		if c < 'A' || c > 'Z' {
			return 0, false
		}
		v = v*26 + int64(c-'A')
	}
	low := ((v-symbolAdd)%symbolSpace + symbolSpace) % symbolSpace * symbolMulInv % symbolSpace
	idx := block*symbolSpace + low
	if Symbol(idx) != sym || (idx%SecuritiesPerLU >= CompaniesPerLU) != pref {
		return 0, false
	}
	return idx, true
}
