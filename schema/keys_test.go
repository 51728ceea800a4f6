package schema

import "testing"

// TestTierPermutation: the permutation is a bijection of a load unit's 1,000
// customers that permInverse undoes, and it gives the reference's 20/60/20 % tiers.
func TestTierPermutation(t *testing.T) {
	seen := map[int64]bool{}
	tiers := map[int]int{}
	for low := int64(0); low < LoadUnit; low++ {
		p := permute(low)
		if seen[p] {
			t.Fatalf("permute is not a bijection: %d repeats", p)
		}
		seen[p] = true
		if got := permInverse(p); got != low {
			t.Fatalf("permInverse(permute(%d)) = %d", low, got)
		}
		tiers[Tier(CustomerID(low+1))]++
	}
	if tiers[1] != 200 || tiers[2] != 600 || tiers[3] != 200 {
		t.Fatalf("tiers %v, want 200/600/200", tiers)
	}
}
