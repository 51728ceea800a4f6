package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

// TestCSVColumns pins the column order: it is a public contract, and a change here
// must be an append documented in docs/result-format.md.
func TestCSVColumns(t *testing.T) {
	want := "file,label,users,started_at,warmup_s,measured_s,partial,driver_bottleneck,tps,tps_e,count," +
		"avg_ms,p50_ms,p90_ms,p95_ms,p99_ms,max_ms,errors,retries,rollbacks,io_source,read_iops,write_iops,iops," +
		"read_mbps,write_mbps,read_await_ms,write_await_ms,queue_depth,io_per_txn,wal_bytes_per_commit," +
		"reads_per_txn,writes_per_txn,cache_hit_ratio,data_source,bottleneck,flags,memory_cap_bytes,db_size_bytes," +
		"rate,limits,limits_broken,tps_cv,tps_half_change,nominal_percent," +
		"host_source,host_cores,cpu_user_pct,cpu_system_pct,cpu_iowait_pct,cpu_steal_pct,cpu_idle_pct,run_queue," +
		"mem_total_bytes,mem_used_bytes,mem_cache_bytes,mem_free_bytes,net_rx_bytes_per_s,net_tx_bytes_per_s," +
		"net_rx_packets_per_s,net_tx_packets_per_s,net_link_pct,driver_cpu_pct"
	if got := strings.Join(CSVHeader(), ","); got != want {
		t.Fatalf("CSV header changed:\n got %s\nwant %s", got, want)
	}
}

func TestWriteStepsCSV(t *testing.T) {
	a := runfixture.SampleRun("A, with comma", []int{100, 50}, 1, 1, 1)
	b := runfixture.SampleRun("B", []int{50}, 2, 1, 2)
	b.Steps[0].IO = nil
	var buf bytes.Buffer
	if err := WriteStepsCSV(&buf, []results.Input{{Path: "a.json", Run: a}, {Path: "b.json", Run: b}}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	col := map[string]int{}
	for i, n := range rows[0] {
		col[n] = i
	}
	if rows[1][col["label"]] != "A, with comma" || rows[1][col["users"]] != "50" || rows[2][col["users"]] != "100" {
		t.Fatalf("rows not per run in user order: %v", rows[1:])
	}
	if rows[1][col["tps"]] != csvFloat(a.Steps[1].TPS) || rows[1][col["p95_ms"]] == "" {
		t.Errorf("figures: %v", rows[1])
	}
	if rows[3][col["read_iops"]] != "" || rows[3][col["io_source"]] != "" {
		t.Errorf("no-I/O step shows I/O: %v", rows[3])
	}
	if rows[2][col["iops"]] != "3000" {
		t.Errorf("iops = %q", rows[2][col["iops"]])
	}
}
