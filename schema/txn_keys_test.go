package schema

import "testing"

func TestSymbolIndexInvertsSymbol(t *testing.T) {
	for _, i := range []int64{0, 1, 499, 500, 684, 685, 12345, 456975, 456976, 456976*2 + 501} {
		got, ok := SymbolIndex(Symbol(i))
		if !ok || got != i {
			t.Errorf("SymbolIndex(Symbol(%d)=%q) = %d, %v", i, Symbol(i), got, ok)
		}
	}
	for i := int64(0); i < 3*SecuritiesPerLU; i++ {
		if got, ok := SymbolIndex(Symbol(i)); !ok || got != i {
			t.Fatalf("index %d: got %d %v", i, got, ok)
		}
	}
	for _, bad := range []string{"", "AB", "abcd", "ABCDX", "ABCD-x", "ABCD-0"} {
		if _, ok := SymbolIndex(bad); ok {
			t.Errorf("SymbolIndex(%q) ok", bad)
		}
	}
}
