package driver

import (
	"slices"
	"testing"

	"github.com/brokerbench/brokerbench/txn"
)

// TestWorkloadNamesEachTypeOnce: results keys limits and commits by name, so the
// workload the command hands it names every catalogue row, each once.
func TestWorkloadNamesEachTypeOnce(t *testing.T) {
	names := Workload().Names()
	if len(names) != len(txn.Catalogue) {
		t.Fatalf("%d names for %d catalogue rows", len(names), len(txn.Catalogue))
	}
	if c := slices.Compact(slices.Clone(names)); len(c) != len(names) {
		t.Errorf("a name twice in %v", names)
	}
	for _, s := range txn.Catalogue {
		if Workload().ReadOnly(s.Name) != s.ReadOnly || Workload().DefaultLimits()[s.Name] != s.Limit {
			t.Errorf("%s: read-only %v, limit %v; the catalogue says %v, %v", s.Name,
				Workload().ReadOnly(s.Name), Workload().DefaultLimits()[s.Name], s.ReadOnly, s.Limit)
		}
	}
}
