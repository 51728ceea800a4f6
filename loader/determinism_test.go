package loader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/schema"
)

// fingerprintScale is the smallest scale the workload accepts: one load unit and the
// minimum trade days.
var fingerprintScale = schema.Scale{Customers: 1000, TradeDays: 5}

// jobOutput is what one job produced per table: a digest of its binary COPY tuples
// and the row count.
type jobOutput map[string]struct {
	sum  string
	rows int64
}

// runJob runs a job alone into hashing sinks; feed, when set, also receives every
// table's bytes in order.
func runJob(t testing.TB, ks *keyspace, j job, feed func(table string, b []byte)) jobOutput {
	t.Helper()
	hs := make([]hash.Hash, len(j.tables))
	rows := make([]int64, len(j.tables))
	enc := make([]rowEncoder, len(j.tables))
	for i, name := range j.tables {
		tb := tableOf(t, name)
		enc[i] = encodedRows{postgres.Engine.RowFormat.NewEncoder(len(tb.Columns), chunkBytes)}
		hs[i] = sha256.New()
	}
	e := newEmitter(enc)
	e.ship = func(_ context.Context, i int, c chunk) error {
		hs[i].Write(c.data)
		rows[i] += int64(c.rows)
		if feed != nil {
			feed(j.tables[i], c.data)
		}
		return nil
	}
	ctx := context.Background()
	if err := j.run(ctx, e); err != nil {
		t.Fatalf("%s: %v", j, err)
	}
	if err := e.flush(ctx); err != nil {
		t.Fatal(err)
	}
	out := jobOutput{}
	for i, name := range j.tables {
		out[name] = struct {
			sum  string
			rows int64
		}{hex.EncodeToString(hs[i].Sum(nil)), rows[i]}
	}
	return out
}

func tableOf(t testing.TB, name string) schema.Table {
	for _, tb := range loadedTables() {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s", name)
	return schema.Table{}
}

// fingerprint is the committed digest of every table's generated rows at
// fingerprintScale with the default seed (docs/workload.md §5.1). A change to any
// generator changes it: then bump GeneratorVersion, so templates and markers of the
// old data are not mistaken for the new, and update the constant.
const fingerprint = "dc12558e7cd2f6602a672b8c77b2108adcfa34b8012af91515cc07d9a846f271"

func TestDeterministicFingerprint(t *testing.T) {
	ks := newKeyspace(fingerprintScale, DefaultSeed)
	jobs := plan(ks)
	perTable := map[string]hash.Hash{}
	rows := map[string]int64{}
	seq := make([]jobOutput, len(jobs))
	for i, j := range jobs {
		out := runJob(t, ks, j, func(table string, b []byte) {
			if perTable[table] == nil {
				perTable[table] = sha256.New()
			}
			perTable[table].Write(b)
		})
		seq[i] = out
		for name, o := range out {
			rows[name] += o.rows
		}
	}
	checkIndependence(t, fingerprintScale, DefaultSeed, jobs, seq)
	var names []string
	for n := range perTable {
		names = append(names, n)
	}
	sort.Strings(names)
	all := sha256.New()
	var report strings.Builder
	for _, n := range names {
		s := hex.EncodeToString(perTable[n].Sum(nil))
		fmt.Fprintf(all, "%s %d %s\n", n, rows[n], s)
		fmt.Fprintf(&report, "%-20s %9d %s\n", n, rows[n], s[:16])
	}
	got := hex.EncodeToString(all.Sum(nil))
	if got != fingerprint {
		t.Errorf("generated data changed: fingerprint %s, committed %s\nper table:\n%s\nIf intended, bump GeneratorVersion and commit the new fingerprint.", got, fingerprint, report.String())
	}

	// The deterministic cardinalities of docs/workload.md §3.1 hold in the generator itself.
	for _, n := range []string{"customer", "customer_account", "customer_taxrate", "broker", "company", "company_competitor",
		"security", "last_trade", "financial", "news_item", "news_xref", "daily_market", "address", "watch_list",
		"status_type", "trade_type", "taxrate", "zip_code", "sector", "industry", "exchange", "charge", "commission_rate",
		"trade", "settlement", schema.OpeningBalanceTable} {
		if want := fingerprintScale.Rows(n); rows[n] != want {
			t.Errorf("%s: generated %d rows, want %d", n, rows[n], want)
		}
	}
}

// checkIndependence runs a sample of every job kind alone, in reverse order, each on a
// fresh key space, and compares it with its output inside the sequential run seq of
// the whole plan (docs/workload.md §5.1).
func checkIndependence(t *testing.T, sc schema.Scale, seed uint64, jobs []job, seq []jobOutput) {
	t.Helper()
	seen := map[int64]int{}
	for i := len(jobs) - 1; i >= 0; i-- {
		j := jobs[i]
		if seen[j.kind] >= 2 {
			continue
		}
		seen[j.kind]++
		fresh := newKeyspace(sc, seed)
		got := runJob(t, fresh, findJob(t, fresh, j), nil)
		for name, o := range seq[i] {
			if got[name] != o {
				t.Errorf("%s alone: %s differs from the sequential run (%d vs %d rows)", j, name, got[name].rows, o.rows)
			}
		}
	}
	if len(seen) != 7 {
		t.Errorf("sampled %d job kinds, want 7", len(seen))
	}
}

func findJob(t *testing.T, ks *keyspace, like job) job {
	t.Helper()
	for _, k := range plan(ks) {
		if k.kind == like.kind && k.lu == like.lu && k.part == like.part {
			return k
		}
	}
	t.Fatalf("no %s in the plan", like)
	return job{}
}

// Beyond the first load unit: a second unit's trade and customer jobs alone equal the
// same jobs run after the first unit's, and their rows are the second unit's; another
// seed gives other data.
func TestSecondLoadUnitAndSeed(t *testing.T) {
	sc := schema.Scale{Customers: 2000, TradeDays: 5}
	ks := newKeyspace(sc, 42)
	var first, second []job
	for _, j := range plan(ks) {
		if (j.kind == kindTrade || j.kind == kindCustomer || j.kind == kindBroker) && j.part <= 1 {
			if j.lu == 0 {
				first = append(first, j)
			} else {
				second = append(second, j)
			}
		}
	}
	var seq []jobOutput
	for _, j := range append(first, second...) {
		seq = append(seq, runJob(t, ks, j, nil))
	}
	for i, j := range second {
		fresh := newKeyspace(sc, 42)
		got := runJob(t, fresh, findJob(t, fresh, j), nil)
		for name, o := range seq[len(first)+i] {
			if got[name] != o {
				t.Errorf("%s alone: %s differs", j, name)
			}
			if o.rows == 0 {
				t.Errorf("%s wrote no %s rows", j, name)
			}
		}
		if got["trade"] == seq[i]["trade"] && j.kind == kindTrade {
			t.Errorf("%s: the second load unit repeats the first one's trades", j)
		}
	}
	other := newKeyspace(sc, 43)
	j := findJob(t, other, second[0])
	if runJob(t, other, j, nil)[j.tables[0]] == seq[len(first)][j.tables[0]] {
		t.Errorf("%s: seed 43 generated the same rows as seed 42", j)
	}
}
