package schema

import (
	"fmt"
	"math"
)

// Mix hashes a value to 64 well-mixed bits (splitmix64's finalizer). The key space
// uses it for structure that must be identical in the loader and the transactions
// whatever the seed: tiers, account counts, baskets, permission holders.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Mix2 hashes a pair.
func Mix2(a, b uint64) uint64 { return Mix(a ^ Mix(b)) }

// The customer tier permutation (docs/workload.md §4.2): a fixed bijection of the low three digits
// of the customer ordinal. perm < 200 is tier 1, < 800 tier 2, else tier 3, giving
// 20/60/20 % per load unit.
const (
	permMul    = 577 // coprime with 1000
	permAdd    = 181
	permMulInv = 513 // permMul x permMulInv ≡ 1 (mod 1000)
)

func permute(low int64) int64 { return (low*permMul + permAdd) % LoadUnit }

// permInverse undoes permute with permMul's inverse modulo 1000
// (577 x 513 = 296,001).
func permInverse(v int64) int64 {
	return ((v - permAdd + LoadUnit) % LoadUnit) * permMulInv % LoadUnit
}

// Tier returns the customer's tier (1, 2 or 3).
func Tier(cID int64) int {
	_, tier := tierRank(cID)
	return tier
}

// tierRank returns the customer's rank within its tier and the tier.
func tierRank(cID int64) (rank int64, tier int) {
	perm := permute((CustomerOrdinal(cID) - 1) % LoadUnit)
	switch {
	case perm < 200:
		return perm, 1
	case perm < 800:
		return perm - 200, 2
	}
	return perm - 800, 3
}

// CustomerFromTier returns the customer with the given tier and rank within the tier in
// load unit lu (0-based): the inverse of the tier permutation, used by the non-uniform
// customer selector.
func CustomerFromTier(lu int64, tier int, rank int64) int64 {
	var perm int64
	switch tier {
	case 1:
		perm = rank
	case 2:
		perm = 200 + rank
	default:
		perm = 800 + rank
	}
	return CustomerID(lu*LoadUnit + permInverse(perm) + 1)
}

// Account counts per tier (docs/workload.md §4.2): tier 1 1-4, tier 2 2-8, tier 3 5-10. The cycles
// are balanced so every load unit has exactly 5,000 accounts (500 + 3,000 + 1,500).
var (
	tier1Accounts = [...]int{1, 4, 2, 3}                         // 200 customers, mean 2.5
	tier2Accounts = [...]int{2, 8, 3, 7, 4, 6, 5, 5, 6, 4, 7, 3} // 600 customers, mean 5
	tier3Accounts = [...]int{5, 10, 6, 9, 7, 8}                  // 200 customers, mean 7.5; 200 = 33x6 + (5,10)
)

// AccountCount returns how many accounts the customer has.
func AccountCount(cID int64) int {
	rank, tier := tierRank(cID)
	switch tier {
	case 1:
		return tier1Accounts[rank%int64(len(tier1Accounts))]
	case 2:
		return tier2Accounts[rank%int64(len(tier2Accounts))]
	}
	return tier3Accounts[rank%int64(len(tier3Accounts))]
}

// AccountBroker returns the broker of an account: a load unit's accounts are spread
// evenly over that unit's 10 brokers.
func AccountBroker(caID int64) int64 {
	cID, k := AccountOwner(caID)
	ord := CustomerOrdinal(cID)
	lu := (ord - 1) / LoadUnit
	return BrokerID(lu*BrokersPerLU + (ord+int64(k))%BrokersPerLU)
}

// AccountTaxStatus: 20 % non-taxable (0), 50 % taxable with withholding (1), 30 %
// taxable without (2).
func AccountTaxStatus(caID int64) int {
	switch v := Mix2(uint64(caID), 1) % 10; {
	case v < 2:
		return 0
	case v < 7:
		return 1
	}
	return 2
}

// Security key space: within a load unit, security j (0..684) belongs to company
// j mod 500; the first 500 are COMMON stock, the rest a preferred issue of the same
// company. Global index = lu*685 + j.

// SecurityCompany returns the company index of a security index.
func SecurityCompany(secIndex int64) int64 {
	lu, j := secIndex/SecuritiesPerLU, secIndex%SecuritiesPerLU
	return lu*CompaniesPerLU + j%CompaniesPerLU
}

// SecurityIssue returns the issue of a security index.
func SecurityIssue(secIndex int64) string {
	if secIndex%SecuritiesPerLU < CompaniesPerLU {
		return "COMMON"
	}
	return "PREF_A"
}

// SecurityExchange returns the exchange id of a security.
func SecurityExchange(secIndex int64) string {
	return ExchangeIDs[Mix2(uint64(secIndex), 2)%Exchanges]
}

// Symbol returns a security's ticker: 3-5 letters from the index through a fixed
// bijection, so symbols look arbitrary but are unique and sort unlike their index.
func Symbol(secIndex int64) string {
	// 26^4 = 456,976 four-letter symbols cover 667 load units; beyond that a suffix.
	const space = 26 * 26 * 26 * 26
	v := (secIndex*7919 + 12345) % space
	var b [4]byte
	for i := 3; i >= 0; i-- {
		b[i] = byte('A' + v%26)
		v /= 26
	}
	sym := string(b[:])
	if secIndex%SecuritiesPerLU >= CompaniesPerLU {
		sym += "PR"
	}
	if secIndex >= space {
		sym += fmt.Sprintf("-%d", secIndex/space)
	}
	return sym
}

// AccountBasket returns the security indexes an account trades (docs/workload.md §4.2): 6-14
// distinct securities, about 10, drawn from all securities. The loader's trades and
// holdings and the transactions' inputs both use it.
func (s Scale) AccountBasket(caID int64) []int64 {
	n := 6 + int(Mix2(uint64(caID), 3)%9)
	out := make([]int64, 0, n)
	for i := uint64(0); len(out) < n; i++ {
		c := int64(Mix2(uint64(caID), 100+i) % uint64(s.Securities()))
		dup := false
		for _, x := range out {
			if x == c {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// Holder is a person allowed to trade on an account.
type Holder struct {
	TaxID, First, Last, ACL string
}

// AccountHolders returns the account's permission rows: the owner ("0000"), then 0
// extra holders for 60 % of accounts, 1 for 38 % ("0001"), 2 for 2 % ("0001", "0011").
// Extra holders are persons from a fixed id range, not necessarily customers.
func AccountHolders(caID int64) []Holder {
	cID, _ := AccountOwner(caID)
	f, _, l := CustomerName(cID)
	out := []Holder{{TaxID: CustomerTaxID(cID), First: f, Last: l, ACL: "0000"}}
	extra := 0
	switch v := Mix2(uint64(caID), 4) % 100; {
	case v < 60:
	case v < 98:
		extra = 1
	default:
		extra = 2
	}
	acls := [...]string{"0001", "0011"}
	prev := int64(-1)
	for i := 0; i < extra; i++ {
		person := int64(Mix2(uint64(caID), 5+uint64(i))%50_000_000) + 1_000_000_000
		if person == prev {
			// The same person twice would repeat the (ap_ca_id, ap_tax_id) key.
			person = 1_000_000_000 + (person-1_000_000_000+1)%50_000_000
		}
		prev = person
		f, _, l := PersonName(person)
		out = append(out, Holder{TaxID: PersonTaxID(person), First: f, Last: l, ACL: acls[i]})
	}
	return out
}

// Price wave (docs/workload.md §4.3): every security moves on a triangular wave between $20 and
// $30 with a 900 s period, phase-shifted by its index.
const (
	PriceLow    = 20.00
	PriceHigh   = 30.00
	PricePeriod = 900.0 // seconds
)

// PriceAt returns a security's price in cents at t seconds of the wave's clock.
func PriceAt(secIndex int64, t float64) int64 {
	phase := float64(Mix2(uint64(secIndex), 6)%900) + t
	p := math.Mod(phase, PricePeriod)
	if p < 0 {
		p += PricePeriod
	}
	half := PricePeriod / 2
	var frac float64
	if p < half {
		frac = p / half
	} else {
		frac = (PricePeriod - p) / half
	}
	return int64(math.Round((PriceLow + frac*(PriceHigh-PriceLow)) * 100))
}

// NextCrossing returns the first time >= t at which the security's price reaches
// cents (rising or falling), for arming limit orders; ok is false when the price is
// outside the wave's range.
func NextCrossing(secIndex int64, t float64, cents int64) (at float64, ok bool) {
	if cents < PriceLow*100 || cents > PriceHigh*100 {
		return 0, false
	}
	// Scan at 1 s resolution over one period: cheap and exact enough for the emulator.
	prev := PriceAt(secIndex, t)
	if prev == cents {
		return t, true
	}
	for d := 1.0; d <= PricePeriod; d++ {
		p := PriceAt(secIndex, t+d)
		if (prev <= cents && p >= cents) || (prev >= cents && p <= cents) {
			return t + d, true
		}
		prev = p
	}
	return 0, false
}
