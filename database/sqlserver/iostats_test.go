package sqlserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/database"
)

// Fixture rows as sys.dm_io_virtual_file_stats joined to sys.database_files returns
// them: the benchmark database (id 7) with two data files and a log, tempdb (id 2)
// with a data file and a log, and a FILESTREAM container that must be ignored.
var sqlserverFixture = []sqlserverFileRow{
	{DatabaseID: 7, FileID: 1, TypeDesc: "ROWS", Reads: 1000, ReadBytes: 1000 * 8192, ReadMS: 500, Writes: 200, WriteBytes: 200 * 65536, WriteMS: 300},
	{DatabaseID: 7, FileID: 3, TypeDesc: "ROWS", Reads: 10, ReadBytes: 10 * 65536, ReadMS: 5, Writes: 2, WriteBytes: 16384, WriteMS: 1},
	{DatabaseID: 7, FileID: 2, TypeDesc: "LOG", Reads: 4, ReadBytes: 4 * 61440, ReadMS: 2, Writes: 5000, WriteBytes: 5000 * 4096, WriteMS: 2500},
	{DatabaseID: 2, FileID: 1, TypeDesc: "ROWS", Reads: 7, ReadBytes: 7 * 8192, ReadMS: 1, Writes: 70, WriteBytes: 70 * 8192, WriteMS: 14},
	{DatabaseID: 2, FileID: 2, TypeDesc: "LOG", Reads: 0, ReadBytes: 0, ReadMS: 0, Writes: 30, WriteBytes: 30 * 512, WriteMS: 3},
	{DatabaseID: 7, FileID: 65537, TypeDesc: "FILESTREAM", Reads: 99, ReadBytes: 99, ReadMS: 99, Writes: 99, WriteBytes: 99, WriteMS: 99},
}

func TestSQLServerIOCountersMapping(t *testing.T) {
	at := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	c := sqlserverIOCounters(sqlserverFixture, at, "2026-11-29T22:00:00.000")
	if !c.At.Equal(at) || c.Reset != "2026-11-29T22:00:00.000" {
		t.Errorf("at %v reset %q", c.At, c.Reset)
	}
	if len(c.Groups) != 2 || c.Groups[0].Name != "data" || c.Groups[1].Name != "wal" {
		t.Fatalf("groups %+v, want data then wal", c.Groups)
	}
	data, wal := c.Groups[0], c.Groups[1]
	want := database.IOGroup{Name: "data", ReadOps: 1017, ReadBytes: 1000*8192 + 10*65536 + 7*8192, WriteOps: 272,
		WriteBytes: 200*65536 + 16384 + 70*8192, ReadTimeMS: 506, WriteTimeMS: 315, HasReadTime: true, HasWriteTime: true}
	if data != want {
		t.Errorf("data\n got %+v\nwant %+v", data, want)
	}
	want = database.IOGroup{Name: "wal", ReadOps: 4, ReadBytes: 4 * 61440, WriteOps: 5030, WriteBytes: 5000*4096 + 30*512,
		ReadTimeMS: 2, WriteTimeMS: 2503, HasReadTime: true, HasWriteTime: true}
	if wal != want {
		t.Errorf("wal\n got %+v\nwant %+v", wal, want)
	}
	// The WAL volume is the benchmark database's log only, not tempdb's.
	if !c.HasWAL || c.WALBytes != 5000*4096 {
		t.Errorf("wal bytes %d (has %v), want %d", c.WALBytes, c.HasWAL, 5000*4096)
	}
}

func TestSQLServerIOCountersEmptyLog(t *testing.T) {
	c := sqlserverIOCounters(sqlserverFixture[:2], time.Time{}, "")
	if c.HasWAL || c.Groups[1].WriteOps != 0 || c.Groups[0].ReadOps != 1010 {
		t.Errorf("%+v", c)
	}
}

func TestSQLServerIOPermissionMessage(t *testing.T) {
	err := sqlserverIOError(fmt.Errorf("query: %w", mssql.Error{Number: 300, Class: 14}))
	for _, want := range []string{"VIEW SERVER STATE", "VIEW SERVER PERFORMANCE STATE", IOSource} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if ErrorNumber(err) != 300 {
		t.Error("cause not wrapped")
	}
	if !errors.Is(err, database.ErrPermission) {
		t.Error("permission error not marked database.ErrPermission")
	}
	// Told by number, wherever it sits in the batch.
	batch := mssql.Error{Number: 3621, Class: 16, All: []mssql.Error{{Number: 297, Class: 16}, {Number: 3621, Class: 16}}}
	if err := sqlserverIOError(batch); !errors.Is(err, database.ErrPermission) {
		t.Errorf("297 inside the batch not seen: %v", err)
	}
	for _, n := range []int32{208, 207, 102, 8134} {
		err := sqlserverIOError(mssql.Error{Number: n, Class: 16})
		if strings.Contains(err.Error(), "VIEW SERVER") || errors.Is(err, database.ErrPermission) {
			t.Errorf("error %d blamed on permissions: %v", n, err)
		}
	}
	// Babelfish: the views do not exist, told by the meaning of its unmapped number.
	err = sqlserverIOError(bfErr(`relation "sys.dm_io_virtual_file_stats" does not exist`))
	if errors.Is(err, database.ErrPermission) || !errors.Is(err, database.ErrUnavailable) || !strings.Contains(err.Error(), "sys.dm_io_virtual_file_stats does not exist on this server") {
		t.Errorf("missing view: %v", err)
	}
	if err := sqlserverIOError(bfErr("permission denied for function dm_io_virtual_file_stats")); !errors.Is(err, database.ErrPermission) {
		t.Errorf("Babelfish's refusal not a permission error: %v", err)
	}
	if err := sqlserverIOError(errors.New("connection reset")); errors.Is(err, database.ErrPermission) {
		t.Errorf("a non-server error blamed on permissions: %v", err)
	}
}

func TestWithAppName(t *testing.T) {
	got := withAppName("sqlserver://u:p@h?app+name=brokerbench&database=bb", "brokerbench-iostat")
	if !strings.Contains(got, "app+name=brokerbench-iostat") || strings.Count(got, "app+name") != 1 || !strings.Contains(got, "database=bb") {
		t.Error(got)
	}
}

func TestSQLServerIOStatsServerProcess(t *testing.T) {
	r := &msIOStats{host: "127.0.0.1"}
	if pid, host := r.ServerProcess(); pid != 0 || host != "127.0.0.1" {
		t.Errorf("ServerProcess() = %d, %q", pid, host)
	}
}
