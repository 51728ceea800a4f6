package mdbmanaged_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/managed"
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// TestDataFolderMarked: the data folder mariadb-install-db made carries brokerbench's
// marker, and a restart (quickstart's, with a cap) refuses a data folder without it,
// before it stops the server: the server goes on answering.
func TestDataFolderMarked(t *testing.T) {
	t.Parallel()
	testmdb.Require(t)
	ctx := context.Background()
	s, err := mdbmanaged.Start(ctx, mdbmanaged.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	if ok, err := managed.Marked(s.DataDir); !ok {
		t.Fatalf("no marker in the data folder brokerbench made (%v)", err)
	}
	if err := s.RestartWithMemoryCap(ctx, 0); err != nil {
		t.Fatalf("a marked data folder does not restart: %v", err)
	}
	if err := os.Remove(filepath.Join(s.DataDir, managed.MarkerFile)); err != nil {
		t.Fatal(err)
	}
	err = s.RestartWithMemoryCap(ctx, 0)
	if err == nil || !strings.Contains(err.Error(), "holds a MariaDB data folder brokerbench did not create") {
		t.Fatalf("a restart on a data folder without the marker: %v", err)
	}
	conn, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)))
	if err != nil {
		t.Fatalf("the refused restart stopped the server: %v", err)
	}
	conn.Close()
}
