package iostat

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func fixtureLocator(t *testing.T) *locator {
	t.Helper()
	l, err := newLocator("testdata/root/proc", "testdata/root/sys")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestStackOf(t *testing.T) {
	l := fixtureLocator(t)
	cases := []struct {
		maj, min uint32
		want     stack
	}{
		{8, 48, stack{Top: "sdd", Leaves: []string{"sdd"}}},          // plain disk
		{8, 1, stack{Top: "sda1", Leaves: []string{"sda"}}},          // partition: its disk below
		{253, 0, stack{Top: "dm-0", Leaves: []string{"sda"}}},        // LVM on a partition
		{9, 0, stack{Top: "md0", Leaves: []string{"sdb", "sdc"}}},    // md RAID1 on partitions
		{253, 1, stack{Top: "dm-1", Leaves: []string{"sdb", "sdc"}}}, // LVM on md on partitions
	}
	for _, c := range cases {
		got, err := l.stackOf(c.maj, c.min)
		if err != nil {
			t.Fatalf("%d:%d: %v", c.maj, c.min, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d:%d = %+v, want %+v", c.maj, c.min, got, c.want)
		}
	}
	if _, err := l.stackOf(0, 39); err == nil {
		t.Error("an anonymous device (tmpfs) resolved to a block device")
	}
}

func TestLayoutRoles(t *testing.T) {
	names := func(ds []Device) []Device { return ds }
	// Data on a partition, WAL on LVM over another partition of the same disk: two
	// tops in the totals, the disk once below them.
	got := names(layout(stack{Top: "sda1", Leaves: []string{"sda"}}, &stack{Top: "dm-0", Leaves: []string{"sda"}}))
	want := []Device{
		{Name: "sda1", Role: RoleData, InTotals: true},
		{Name: "dm-0", Role: RoleWAL, InTotals: true},
		{Name: "sda", Role: RoleDataWAL},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("partition+dm: %+v", got)
	}
	// Same device for both: one entry, data+wal.
	got = layout(stack{Top: "sdd", Leaves: []string{"sdd"}}, &stack{Top: "sdd", Leaves: []string{"sdd"}})
	if !reflect.DeepEqual(got, []Device{{Name: "sdd", Role: RoleDataWAL, InTotals: true}}) {
		t.Errorf("shared device: %+v", got)
	}
	// WAL on dm-0 over sda2, data on the whole disk sda: dm-0's I/O is inside sda's, so
	// only sda is in the totals.
	got = layout(stack{Top: "sda", Leaves: []string{"sda"}}, &stack{Top: "dm-0", Leaves: []string{"sda"}})
	want = []Device{{Name: "sda", Role: RoleDataWAL, InTotals: true}, {Name: "dm-0", Role: RoleWAL}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("top over the other's top: %+v", got)
	}
	// No WAL information.
	got = layout(stack{Top: "dm-1", Leaves: []string{"sdb", "sdc"}}, nil)
	want = []Device{{Name: "dm-1", Role: RoleData, InTotals: true}, {Name: "sdb", Role: RoleData}, {Name: "sdc", Role: RoleData}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dm over md: %+v", got)
	}
}

// TestPartitionsNotDoubleCounted: the data directory on sda1 and the WAL on dm-0 (over
// sda2): the totals add sda1 and dm-0 only, never sda, which holds both again.
func TestPartitionsNotDoubleCounted(t *testing.T) {
	l := fixtureLocator(t)
	src := &diskstats{bd: l.bd, devices: layout(stack{Top: "sda1", Leaves: []string{"sda"}}, &stack{Top: "dm-0", Leaves: []string{"sda"}})}
	src.now = fixedClock()
	cur, err := src.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	zero := &Snapshot{At: cur.At.Add(-10 * time.Second), Devices: map[string]Counters{
		"sda1": {Has: HasReadTime | HasWriteTime | HasBusyTime | HasQueueTime, TimeWrap: kernelTimeWrap},
		"dm-0": {Has: HasReadTime | HasWriteTime | HasBusyTime | HasQueueTime, TimeWrap: kernelTimeWrap},
		"sda":  {Has: HasReadTime | HasWriteTime | HasBusyTime | HasQueueTime, TimeWrap: kernelTimeWrap},
	}}
	if len(cur.Devices) != 3 {
		t.Fatalf("devices read: %v", cur.Devices)
	}
	s := &Sampler{sources: []Source{src}, walIdx: -1}
	tot, secs, problems, ok := s.totals(zero, cur)
	if !ok || len(problems) > 0 {
		t.Fatalf("totals: ok=%v problems=%v", ok, problems)
	}
	// sda1 600 reads + dm-0 400 = 1000 (= sda's own count, not 2000).
	if tot.ReadOps != 1000 || tot.WriteOps != 2000 || secs != 10 {
		t.Fatalf("totals = %v over %v s", tot, secs)
	}
	// sda2's line has only 11 statistics (old kernel format); sda1's 15: both parse.
	if cur.Devices["sda1"].WriteTime != 800_000 {
		t.Fatalf("sda1 = %v", cur.Devices["sda1"])
	}
}

func TestOpenLocalByName(t *testing.T) {
	l := fixtureLocator(t)
	src, err := openLocalByName(l, []string{"/dev/sdb", "sdc=wal", "sdb"}, map[string]string{"sdb": RoleData})
	if err != nil {
		t.Fatal(err)
	}
	want := []Device{{Name: "sdb", Role: RoleData, InTotals: true}, {Name: "sdc", Role: RoleWAL, InTotals: true}}
	if !reflect.DeepEqual(src.Devices(), want) {
		t.Fatalf("devices = %+v", src.Devices())
	}
	if _, err := openLocalByName(l, []string{"sdz"}, nil); err == nil {
		t.Fatal("an unknown device name was accepted")
	}
}

// TestDevNumberOfRealDir maps a real temp directory to its device the way the
// sampler maps data_directory; on this machine that is whatever holds TMPDIR.
func TestDevNumberOfRealDir(t *testing.T) {
	dir := t.TempDir()
	l := &locator{proc: "/proc", sys: "/sys"}
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	maj, min, err := l.devNumber(link)
	if unix.Major(uint64(st.Dev)) == 0 {
		if err == nil {
			t.Logf("anonymous filesystem resolved through mountinfo to %d:%d", maj, min)
		}
		return
	}
	if err != nil || maj != unix.Major(uint64(st.Dev)) || min != unix.Minor(uint64(st.Dev)) {
		t.Fatalf("devNumber = %d:%d, %v; stat says %d:%d", maj, min, err, unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)))
	}
}

func TestServerIsLocal(t *testing.T) {
	self := os.Getpid()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := serverIsLocal("/proc", self, "db.example", cwd); !ok {
		t.Fatalf("our own process in its own cwd is not local: %s", why)
	}
	if ok, _ := serverIsLocal("/proc", self, "127.0.0.1", t.TempDir()); ok {
		t.Fatal("a process working elsewhere was taken for the server of this data directory")
	}
	// A pid that does not exist here: another host or a container.
	if ok, _ := serverIsLocal("testdata/root/proc", 4242, "127.0.0.1", cwd); ok {
		t.Fatal("a process missing from /proc was taken as local")
	}
	// No pid: decided by the address.
	for host, want := range map[string]bool{"/var/run/postgresql": true, "::1": true, "127.0.0.1": true, "localhost": true, "10.0.0.5": false, "db1": false} {
		if got, _ := serverIsLocal("/proc", 0, host, cwd); got != want {
			t.Errorf("host %q: local = %v, want %v", host, got, want)
		}
	}
}
