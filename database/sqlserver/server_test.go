package sqlserver

import (
	"errors"
	"reflect"
	"testing"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/database"
)

// The rows below are built as go-mssqldb hands them to a scan into any: strings for
// (n)varchar, int64 for every integer type, bool for bit, nil for NULL.

func TestDatabaseSettingsFromAFullRow(t *testing.T) {
	row := map[string]any{
		"recovery_model_desc": "SIMPLE", "snapshot_isolation_state_desc": "ON", "is_read_committed_snapshot_on": false,
		"compatibility_level": int64(160), "delayed_durability_desc": "DISABLED", "page_verify_option_desc": "CHECKSUM",
		"is_auto_update_stats_on": true, "is_accelerated_database_recovery_on": false, "target_recovery_time_in_seconds": int64(60),
		"name": "bench", "collation_name": "SQL_Latin1_General_CP1_CI_AS",
	}
	want := map[string]string{
		"recovery_model": "SIMPLE", "allow_snapshot_isolation": "ON", "read_committed_snapshot": "off",
		"compatibility_level": "160", "delayed_durability": "DISABLED", "page_verify": "CHECKSUM",
		"auto_update_statistics": "on", "accelerated_database_recovery": "off", "target_recovery_time_s": "60",
	}
	if got := databaseSettings(row); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// What the live T-SQL endpoint of issue 15 returned: NULL for delayed durability and
// page verification, and no accelerated-recovery column at all. Every key is still
// there, empty where the server said nothing.
func TestDatabaseSettingsToleratesNullsAndMissingColumns(t *testing.T) {
	row := map[string]any{
		"recovery_model_desc": "FULL", "snapshot_isolation_state_desc": "OFF", "is_read_committed_snapshot_on": true,
		"compatibility_level": int64(150), "delayed_durability_desc": nil, "page_verify_option_desc": nil,
		"is_auto_update_stats_on": nil, "target_recovery_time_in_seconds": nil,
	}
	got := databaseSettings(row)
	for k, v := range map[string]string{"recovery_model": "FULL", "read_committed_snapshot": "on", "delayed_durability": "",
		"page_verify": "", "accelerated_database_recovery": "", "auto_update_statistics": "", "target_recovery_time_s": ""} {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q (present %v), want %q", k, g, ok, v)
		}
	}
	if got := databaseSettings(nil); len(got) != 9 || got["recovery_model"] != "" {
		t.Errorf("no sys.databases row: %v", got)
	}
}

func TestVersionInfoToleratesNulls(t *testing.T) {
	info := database.ServerInfo{Settings: map[string]string{}}
	versionInfo(map[string]any{"version": "16.0.4135.4", "edition": "Developer Edition (64-bit)", "product_level": "RTM",
		"product_update_level": "CU15", "engine_edition": int64(3), "server_collation": "SQL_Latin1_General_CP1_CI_AS"}, &info)
	if info.Version != "16.0.4135.4" || info.Num != 1604135 || info.Settings["engine_edition"] != "3" || info.Settings["product_update_level"] != "CU15" {
		t.Errorf("full row: %+v", info)
	}
	info = database.ServerInfo{Settings: map[string]string{}}
	versionInfo(map[string]any{"version": nil, "edition": nil, "product_level": nil, "product_update_level": nil, "engine_edition": nil}, &info)
	if info.Version != "" || info.Num != 0 || info.Settings["engine_edition"] != "" || info.Settings["server_collation"] != "" {
		t.Errorf("NULL row: %+v", info)
	}
	if _, ok := info.Settings["product_update_level"]; ok {
		t.Error("a NULL update level is recorded; it is left out as before")
	}
}

func TestFileDirsSkipsNullPaths(t *testing.T) {
	data, log := fileDirs([]map[string]any{
		{"type_desc": "ROWS", "physical_name": nil},
		{"type_desc": "ROWS", "physical_name": "/var/opt/mssql/data/bench.mdf"},
		{"type_desc": "LOG", "physical_name": `D:\logs\bench_log.ldf`},
		{"type_desc": "ROWS", "physical_name": "/other/bench2.ndf"},
	})
	if data != "/var/opt/mssql/data" || log != `D:\logs` {
		t.Errorf("data %q, log %q", data, log)
	}
	if data, log := fileDirs(nil); data != "" || log != "" {
		t.Errorf("no files: %q %q", data, log)
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{{nil, ""}, {"x", "x"}, {[]byte("y"), "y"}, {true, "on"}, {false, "off"}, {int64(-3), "-3"}, {1.5, "1.5"}} {
		if got := text(c.in); got != c.want {
			t.Errorf("text(%#v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A server that lacks a view or a column, or a login that may not read one, leaves
// fields empty; anything else (a broken connection, a syntax error of ours) fails.
func TestTolerate(t *testing.T) {
	for _, n := range []int32{207, 208, 195, 4121, 229, 262, 297, 300, 916} {
		if err := tolerate(mssql.Error{Number: n, Class: 16}); err != nil {
			t.Errorf("error %d not tolerated", n)
		}
	}
	// The same told by a T-SQL server that is not Microsoft's (Babelfish).
	for _, msg := range []string{`relation "sys.database_files" does not exist`, `column "page_verify_option_desc" does not exist`, "permission denied for view configurations"} {
		if err := tolerate(bfErr(msg)); err != nil {
			t.Errorf("%q not tolerated", msg)
		}
	}
	for _, err := range []error{mssql.Error{Number: 102, Class: 15}, mssql.Error{Number: 10054, Class: 20}, errors.New("EOF"), bfErr("division by zero")} {
		if tolerate(err) == nil {
			t.Errorf("%v tolerated", err)
		}
	}
}
