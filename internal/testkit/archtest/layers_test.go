package archtest

import (
	"slices"
	"strings"
	"testing"
)

// resultsLayers is the results tree bottom up (results/doc.go): a package imports
// only packages before it. merge and compare share a floor: neither imports the other.
var resultsLayers = [][]string{
	{"results/stats"},
	{"results"},
	{"results/record"},
	{"results/figures"},
	{"results/merge", "results/compare"},
	{"results/chart"},
	{"results/report"},
}

// renderers are the packages that write a step for people to read; nothing that
// records, measures or merges a step may import them.
var renderers = []string{"results/report", "results/chart"}

// recorders record, measure or merge steps.
var recorders = []string{"driver", "internal/iostat", "results/record", "results/merge", "diskprofile", "iotrace"}

func floorOf(pkg string) int {
	for i, floor := range resultsLayers {
		if slices.Contains(floor, pkg) {
			return i
		}
	}
	return -1
}

// TestResultsLayers: no import in the results tree runs sideways or up, every
// package of the tree has its floor, and no package that records or merges a step
// imports a renderer to do it.
func TestResultsLayers(t *testing.T) {
	imports := packageImports(t)
	for pkg, ims := range imports {
		if under(pkg, "results") && floorOf(pkg) < 0 {
			t.Errorf("%s has no floor in resultsLayers: place it (results/doc.go)", pkg)
		}
		for im, file := range ims {
			dep, ok := strings.CutPrefix(im, module)
			if !ok {
				continue
			}
			if under(pkg, "results") && under(dep, "results") && floorOf(dep) >= floorOf(pkg) {
				t.Errorf("%s/%s imports %s, which is not below it (results/doc.go)", pkg, file, dep)
			}
			for _, r := range recorders {
				if under(pkg, r) && slices.ContainsFunc(renderers, func(x string) bool { return under(dep, x) }) {
					t.Errorf("%s/%s imports the renderer %s: what records or merges a step renders nothing", pkg, file, dep)
				}
			}
		}
	}
}
