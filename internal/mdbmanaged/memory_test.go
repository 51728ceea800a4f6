package mdbmanaged

import (
	"strconv"
	"testing"
)

// TestMemorySizing holds the rule of docs/mysql.md §5: the pool and the reserve
// beside it add up to the cap, the reserve never falls below the server's measured
// own memory, and CapFor gives a cap that holds the connections asked for.
func TestMemorySizing(t *testing.T) {
	for _, c := range []int64{MinMemoryCap, 244 << 20, 512 << 20, 700 << 20, 1 << 30, 4 << 30, 64 << 30} {
		pool := BufferPoolFor(c)
		if pool <= 0 || pool >= c || c-pool < serverReserveBytes || pool%(1<<20) != 0 {
			t.Errorf("cap %d MiB: buffer pool %d MiB leaves %d MiB beside it, want at least %d MiB", c>>20, pool>>20, (c-pool)>>20, serverReserveBytes>>20)
		}
		if pool < c/2 {
			t.Errorf("cap %d MiB: buffer pool %d MiB is less than half the cap", c>>20, pool>>20)
		}
		if got := memorySettings(c)["innodb-buffer-pool-size"]; got != strconv.FormatInt(pool, 10) {
			t.Errorf("cap %d MiB: settings give the pool %s, want %d", c>>20, got, pool)
		}
	}
	if BufferPoolFor(244<<20) != 122<<20 || BufferPoolFor(1<<30) != 768<<20 {
		t.Errorf("pools %d and %d MiB for 244 MiB and 1 GiB caps", BufferPoolFor(244<<20)>>20, BufferPoolFor(1<<30)>>20)
	}
	for _, conns := range []int{1, 28, 100, 200, 500, 2000} {
		c := CapFor(conns)
		if ConnectionsFit(c) < conns || (c > MinMemoryCap && ConnectionsFit(c-(8<<20)) >= conns) {
			t.Errorf("CapFor(%d) = %d MiB holds %d connections; 8 MiB less holds %d", conns, c>>20, ConnectionsFit(c), ConnectionsFit(c-(8<<20)))
		}
	}
	if CheckMemoryCap(MinMemoryCap-1) == nil || CheckMemoryCap(MinMemoryCap) != nil || CheckMemoryCap(0) != nil {
		t.Error("CheckMemoryCap: want the minimum accepted, one byte less refused, 0 (no cap) accepted")
	}
	if len(memorySettings(0)) != 0 {
		t.Errorf("an uncapped server keeps MariaDB's memory defaults, got %v", memorySettings(0))
	}
}
