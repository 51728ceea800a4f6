package archtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// testkit holds the test harnesses: servers of one product, loads, disks, faults. Only
// tests may import them, so none is ever linked into the binary.
const testkit = "internal/testkit"

// testkitImports returns one line per non-test file of imports (packageImports's map)
// that imports a testkit package from outside internal/testkit. packageImports reads no
// _test.go file, so every import it finds is one the binary or a library would carry.
func testkitImports(imports map[string]map[string]string) []string {
	var lines []string
	for pkg, ims := range imports {
		for im, file := range ims {
			if dep, ok := strings.CutPrefix(im, module); ok && under(dep, testkit) && !under(pkg, testkit) {
				lines = append(lines, fmt.Sprintf("%s/%s imports the test harness %s: only _test.go files and the packages of %s may", pkg, file, dep, testkit))
			}
		}
	}
	slices.Sort(lines)
	return lines
}

// TestTestkitImportsNamed: the rule names each file that breaks it (a package beside
// internal/testkit whose name only begins the same is outside it) and lets the
// harnesses import each other.
func TestTestkitImportsNamed(t *testing.T) {
	imports := map[string]map[string]string{
		"driver":                  {module + "internal/testkit/testpg": "shard.go", module + "results": "driver.go"},
		"internal/testkit/testdb": {module + "internal/testkit/testpg": "testdb.go"},
		"internal/testkitchen":    {module + "internal/testkit/golden": "kitchen.go"},
	}
	got := testkitImports(imports)
	want := []string{
		"driver/shard.go imports the test harness internal/testkit/testpg: only _test.go files and the packages of internal/testkit may",
		"internal/testkitchen/kitchen.go imports the test harness internal/testkit/golden: only _test.go files and the packages of internal/testkit may",
	}
	if !slices.Equal(got, want) {
		t.Errorf("testkitImports = %q, want %q", got, want)
	}
}
