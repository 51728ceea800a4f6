package schema

import "fmt"

// Our own look-alike name lists (not EGen's files): common given names and surnames.
var firstNames = [...]string{
	"James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
	"William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
	"Christopher", "Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret",
	"Donald", "Ashley", "Steven", "Kimberly", "Andrew", "Emily", "Paul", "Donna", "Joshua", "Michelle",
	"Kenneth", "Carol", "Kevin", "Amanda", "Brian", "Melissa", "George", "Deborah", "Timothy", "Stephanie",
	"Ronald", "Rebecca", "Jason", "Sharon", "Edward", "Laura", "Jeffrey", "Cynthia", "Ryan", "Dorothy",
	"Jacob", "Amy", "Gary", "Kathleen", "Nicholas", "Angela", "Eric", "Shirley", "Jonathan", "Emma",
}

var lastNames = [...]string{
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
	"Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
	"Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
	"Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
	"Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
	"Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
	"Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper",
	"Peterson", "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson",
}

// PersonName derives a deterministic name from a person number; customers use their
// C_ID, extra account holders a number from a fixed range.
func PersonName(person int64) (first, middle, last string) {
	h := Mix2(uint64(person), 9)
	first = firstNames[h%uint64(len(firstNames))]
	last = lastNames[(h>>16)%uint64(len(lastNames))]
	middle = string(rune('A' + (h>>32)%26))
	return first, middle, last
}

// PersonTaxID derives a tax id from a person number, so tax id -> person lookups work.
func PersonTaxID(person int64) string {
	h := Mix2(uint64(person), 10)
	return fmt.Sprintf("%03d%02dX%04d%d", h%1000, (h>>10)%100, person%10000, person/10000%1000000)
}

// CustomerName returns a customer's first, middle and last name.
func CustomerName(cID int64) (first, middle, last string) { return PersonName(cID) }

// CustomerTaxID returns a customer's tax id (unique per customer).
func CustomerTaxID(cID int64) string { return PersonTaxID(cID) }

// BrokerName returns a broker's name: unique, "First M. Last" style.
func BrokerName(bID int64) string {
	f, m, l := PersonName(bID + 7_000_000_000)
	return fmt.Sprintf("%s %s. %s %d", f, m, l, BrokerIndex(bID)+1)
}

var companyStems = [...]string{
	"Acme", "Apex", "Atlas", "Beacon", "Bluewater", "Cascade", "Cedar", "Summit", "Crescent", "Delta",
	"Eagle", "Evergreen", "Falcon", "Frontier", "Granite", "Harbor", "Horizon", "Ironwood", "Keystone", "Liberty",
	"Maple", "Meridian", "Northstar", "Oakridge", "Orion", "Pacific", "Pinnacle", "Prairie", "Quantum", "Redwood",
	"Riverside", "Sierra", "Silverline", "Sterling", "Sunrise", "Titan", "Trident", "Union", "Vanguard", "Vertex",
}

var companySuffixes = [...]string{"Corp.", "Inc.", "Holdings", "Group", "Industries", "Co.", "Systems", "Partners", "Ltd.", "Enterprises"}

// CompanyName returns a unique company name for a company index.
func CompanyName(coIndex int64) string {
	n := int64(len(companyStems))
	s := int64(len(companySuffixes))
	stem := companyStems[coIndex%n]
	suf := companySuffixes[(coIndex/n)%s]
	name := fmt.Sprintf("%s %s", stem, suf)
	if r := coIndex / (n * s); r > 0 {
		name = fmt.Sprintf("%s %s %d", stem, suf, r+1)
	}
	return name
}

// SecurityName returns a security's name: its company name and issue.
func SecurityName(secIndex int64) string {
	return fmt.Sprintf("%s %s", CompanyName(SecurityCompany(secIndex)), SecurityIssue(secIndex))
}
