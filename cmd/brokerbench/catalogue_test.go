package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// TestCatalogueAppearsEverywhere: txn.Catalogue states each transaction's facts once;
// this test fails when a transaction, or one of its facts, is missing or different
// anywhere else it must appear: the workload the command hands results (limits, names,
// the read-only types merge needs), the mix table and a section of its own in
// docs/workload.md, the limits in docs/result-format.md and the README, and the server
// routines' calls.
func TestCatalogueAppearsEverywhere(t *testing.T) {
	var want results.Workload
	for _, s := range txn.Catalogue {
		want = append(want, results.Transaction{Name: s.Name, ReadOnly: s.ReadOnly, Limit: s.Limit})
	}
	if got := driver.Workload(); !slices.Equal(got, want) {
		t.Errorf("results is handed the transactions as\n%v\nthe catalogue says\n%v", got, want)
	}

	workload := readDoc(t, "docs/workload.md")
	actors := map[txn.Origin]string{txn.Customer: "users", txn.Market: "emulator", txn.Timer: "timer"}
	for _, s := range txn.Catalogue {
		row := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(s.Name) + ` \| ([a-z]+) \| ([^|]+) \|`).FindStringSubmatch(workload)
		switch {
		case row == nil:
			t.Errorf("docs/workload.md §8: no row for %s in the mix table", s.Name)
		case row[1] != actors[s.Origin]:
			t.Errorf("docs/workload.md §8: %s's actor is %q, the catalogue's %q", s.Name, row[1], actors[s.Origin])
		case s.Weight > 0 && strings.TrimSpace(row[2]) != fmt.Sprint(s.Weight):
			t.Errorf("docs/workload.md §8: %s's weight is %q, the catalogue's %d", s.Name, row[2], s.Weight)
		}
		if !regexp.MustCompile(`(?m)^### 9\.\d+ ` + regexp.QuoteMeta(s.Name) + `$`).MatchString(workload) {
			t.Errorf("docs/workload.md §9: no section for %s", s.Name)
		}
	}

	// The limits table: "| Trade-Order, Trade-Result, Market-Feed | 2 s |".
	seen := map[string]bool{}
	for _, row := range regexp.MustCompile(`(?m)^\| ([A-Z][A-Za-z, -]+) \| ([0-9]+ s|none) \|$`).FindAllStringSubmatch(readDoc(t, "docs/result-format.md"), -1) {
		checkLimits(t, "docs/result-format.md", strings.Split(row[1], ", "), row[2], seen)
	}
	checkAllNamed(t, "docs/result-format.md", seen)
	// The README's sentence: "Trade-Status 1 s; Trade-Order, Trade-Result, Market-Feed 2 s;
	// ...; none for Data-Maintenance and Trade-Cleanup."
	readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	_, sentence, ok := strings.Cut(readme, "The default limits are the values commonly cited for TPC-E: ")
	sentence, _, _ = strings.Cut(sentence, ".")
	if !ok {
		t.Fatal("README.md: the default limits' sentence is gone")
	}
	seen = map[string]bool{}
	for _, part := range strings.Split(sentence, "; ") {
		if names, ok := strings.CutPrefix(part, "none for "); ok {
			checkLimits(t, "README.md", strings.Split(strings.ReplaceAll(names, " and ", ", "), ", "), "none", seen)
			continue
		}
		i := strings.LastIndexByte(part[:strings.LastIndexByte(part, ' ')], ' ')
		checkLimits(t, "README.md", strings.Split(part[:i], ", "), part[i+1:], seen)
	}
	checkAllNamed(t, "README.md", seen)

	routines := readDoc(t, "txn/testdata/routines.golden")
	for _, s := range txn.Catalogue {
		if !strings.Contains(routines, "\n-- "+s.Name+"\n") {
			t.Errorf("txn/testdata/routines.golden: no call of %s's server routine", s.Name)
		}
	}
}

// checkLimits checks that a document gives the transactions names the limit text
// ("2 s", "none"), and notes them in seen.
func checkLimits(t *testing.T, doc string, names []string, text string, seen map[string]bool) {
	t.Helper()
	for _, name := range names {
		seen[name] = true
		i := slices.IndexFunc(txn.Catalogue[:], func(s txn.Spec) bool { return s.Name == name })
		if i < 0 {
			t.Errorf("%s: a limit for %q, which is no transaction of the catalogue", doc, name)
			continue
		}
		want := "none"
		if l := txn.Catalogue[i].Limit; l > 0 {
			want = fmt.Sprintf("%d s", l/time.Second)
		}
		if text != want {
			t.Errorf("%s: %s's limit is %s, the catalogue's %s", doc, name, text, want)
		}
	}
}

// checkAllNamed fails for every catalogue entry a document gave no limit for.
func checkAllNamed(t *testing.T, doc string, seen map[string]bool) {
	t.Helper()
	for _, s := range txn.Catalogue {
		if !seen[s.Name] {
			t.Errorf("%s: no limit given for %s", doc, s.Name)
		}
	}
}

func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
