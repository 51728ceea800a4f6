package report

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/internal/testkit/shardfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/merge"
)

// A merged file is a result file like any other: it is written, read back,
// reported and compared.
func TestMergedFileReportsAndCompares(t *testing.T) {
	fx := shardfixture.RecordedShards(3, []int{2, 4})
	m, err := merge.Merge(fx.Shards, runfixture.Workload())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := results.Write(path, m); err != nil {
		t.Fatal(err)
	}
	back, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Shards, m.Shards) || back.Shard != nil {
		t.Errorf("shards did not survive the file: %+v", back.Shards)
	}
	var out bytes.Buffer
	if err := WriteReport(&out, results.Input{Path: path, Run: back}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "seed 7, merged from 3 shards") {
		t.Errorf("report does not say the file is merged:\n%s", out.String())
	}
	unionPath := filepath.Join(t.TempDir(), "union.json")
	if err := results.Write(unionPath, fx.Union); err != nil {
		t.Fatal(err)
	}
	cmp, err := compare.Compare([]results.Input{{Path: unionPath, Run: fx.Union}, {Path: path, Run: back}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Users) != 2 {
		t.Fatalf("compare matched users %v, want both steps", cmp.Users)
	}
	gates, err := compare.ParseGates([]string{"p95>+0%", "p99<-0%"})
	if err != nil {
		t.Fatal(err)
	}
	// Same transactions, same histograms: no percentile moved at all.
	trips, err := cmp.CheckGates(gates)
	if err != nil || len(trips) != 0 {
		t.Errorf("trips %v, err %v: the merged percentiles differ from one driver's", trips, err)
	}
	out.Reset()
	if err := WriteComparisonText(cmp, &out); err != nil {
		t.Fatal(err)
	}
}
