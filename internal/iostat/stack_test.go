package iostat

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/report"
)

// stackFixture builds a /proc and /sys tree under root (the shape of the kernel's:
// devices/, dev/block and class/block links, slaves/):
//
//	md0   RAID (level) of 4 partitions sda1..sdd1 (8:1 ... 8:49), 512 KiB chunk
//	dm-0  LVM volume vg-data on md0                    ← the data directory
//	loop0 on /img/wal.img, direct I/O                  ← the WAL directory
//
// Every disk's queue has the given write cache mode; the server's process 1 sits
// in blkio group /bench, which caps loop0 (7:0) at 200 write IOPS.
func stackFixture(t *testing.T, root, level, cache string) {
	t.Helper()
	sys := filepath.Join(root, "sys")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(filepath.Dir(name), target)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(rel, name); err != nil {
			t.Fatal(err)
		}
	}
	dev := func(path, num string) string {
		dir := filepath.Join(sys, "devices", path)
		write(filepath.Join(dir, "dev"), num)
		link(dir, filepath.Join(sys, "dev", "block", num))
		link(dir, filepath.Join(sys, "class", "block", filepath.Base(path)))
		return dir
	}
	queue := func(dir, sched, wc string, rot int) {
		write(filepath.Join(dir, "queue", "scheduler"), sched)
		write(filepath.Join(dir, "queue", "write_cache"), wc)
		write(filepath.Join(dir, "queue", "rotational"), fmt.Sprint(rot))
		write(filepath.Join(dir, "queue", "nr_requests"), "64")
		write(filepath.Join(dir, "queue", "read_ahead_kb"), "128")
	}
	var parts []string
	for i, d := range []string{"sda", "sdb", "sdc", "sdd"} {
		disk := dev("pci0/block/"+d, fmt.Sprintf("8:%d", 16*i))
		write(filepath.Join(disk, "size"), "3907029168") // 2 TB in 512-byte sectors
		write(filepath.Join(disk, "device", "model"), "ST2000NM0033")
		queue(disk, "none [mq-deadline] kyber", cache, 1)
		part := dev("pci0/block/"+d+"/"+d+"1", fmt.Sprintf("8:%d", 16*i+1))
		write(filepath.Join(part, "partition"), "1")
		write(filepath.Join(part, "size"), "3907027120")
		parts = append(parts, part)
	}
	md := dev("virtual/block/md0", "9:0")
	write(filepath.Join(md, "md", "level"), level)
	write(filepath.Join(md, "md", "chunk_size"), "524288")
	write(filepath.Join(md, "md", "raid_disks"), "4")
	queue(md, "none", "write back", 1)
	for _, p := range parts {
		link(p, filepath.Join(md, "slaves", filepath.Base(p)))
	}
	dm := dev("virtual/block/dm-0", "253:0")
	write(filepath.Join(dm, "dm", "name"), "vg-data")
	write(filepath.Join(dm, "dm", "uuid"), "LVM-abc123")
	queue(dm, "none", "write back", 1)
	link(md, filepath.Join(dm, "slaves", "md0"))
	loop := dev("virtual/block/loop0", "7:0")
	write(filepath.Join(loop, "loop", "backing_file"), "/img/wal.img")
	write(filepath.Join(loop, "loop", "dio"), "1")
	queue(loop, "none", "write back", 0)

	proc := filepath.Join(root, "proc")
	write(filepath.Join(proc, "1", "mountinfo"),
		"26 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"+
			"40 26 253:0 / /srv/pg rw,noatime - xfs /dev/mapper/vg-data rw,attr2,inode64\n"+
			"41 26 7:0 / /srv/wal rw,relatime - ext4 /dev/loop0 rw,data=ordered")
	write(filepath.Join(proc, "1", "cgroup"), "8:blkio:/bench\n0::/")
	link(filepath.Join(proc, "1"), filepath.Join(proc, "self"))
	write(filepath.Join(proc, "diskstats"), "")
	write(filepath.Join(sys, "fs", "cgroup", "blkio", "bench", "blkio.throttle.write_iops_device"), "7:0 200")
}

func fixtureSystem(t *testing.T, level, cache string) *results.System {
	t.Helper()
	root := t.TempDir()
	stackFixture(t, root, level, cache)
	l, err := newLocator(filepath.Join(root, "proc"), filepath.Join(root, "sys"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := l.describeStack(RoleData, "/srv/pg/data", 253, 0)
	if err != nil {
		t.Fatal(err)
	}
	wal, err := l.describeStack(RoleWAL, "/srv/wal/pg_wal", 7, 0)
	if err != nil {
		t.Fatal(err)
	}
	lim := cgroupIOLimits(filepath.Join(root, "proc"), filepath.Join(root, "sys", "fs", "cgroup"), 1)
	for i := range wal.Devices {
		wal.Devices[i].Throttle = lim[wal.Devices[i].Number]
	}
	return &results.System{Storage: []results.StorageStack{data, wal}}
}

// TestDescribeStackFixture reads a fixture sysfs: LVM on md RAID10 on four
// partitions, and a loop device for the WAL, throttled by the server's cgroup.
func TestDescribeStackFixture(t *testing.T) {
	sys := fixtureSystem(t, "raid10", "write back")
	data, wal := sys.Storage[0], sys.Storage[1]
	if data.Mount == nil || data.Mount.FSType != "xfs" || data.Mount.Point != "/srv/pg" || !strings.Contains(data.Mount.Options, "noatime") {
		t.Errorf("data mount %+v", data.Mount)
	}
	var names []string
	for _, d := range data.Devices {
		names = append(names, fmt.Sprintf("%s:%s:%d", d.Name, d.Kind, d.Depth))
	}
	want := "dm-0:dm:0 md0:md:1 sda1:partition:2 sda:disk:3 sdb1:partition:2 sdb:disk:3 sdc1:partition:2 sdc:disk:3 sdd1:partition:2 sdd:disk:3"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("data devices\n got %s\nwant %s", got, want)
	}
	dm, md, disk := data.Devices[0], data.Devices[1], data.Devices[3]
	if dm.DMName != "vg-data" || dm.DMTarget != "LVM" || !slices.Equal(dm.Members, []string{"md0"}) {
		t.Errorf("dm %+v", dm)
	}
	if md.RAIDLevel != "raid10" || md.RAIDDisks != 4 || md.ChunkBytes != 512<<10 || len(md.Members) != 4 {
		t.Errorf("md %+v", md)
	}
	if disk.Model != "ST2000NM0033" || disk.WriteCache != "write back" || disk.Scheduler != "mq-deadline" ||
		disk.Rotational == nil || !*disk.Rotational || disk.NrRequests != 64 || disk.ReadAheadKB != 128 || disk.SizeBytes != 3907029168*512 {
		t.Errorf("disk %+v", disk)
	}
	if len(wal.Devices) != 1 || wal.Devices[0].Kind != "loop" || wal.Devices[0].BackingFile != "/img/wal.img" ||
		wal.Devices[0].DirectIO == nil || !*wal.Devices[0].DirectIO || wal.Devices[0].Throttle != "wiops=200" {
		t.Errorf("wal devices %+v", wal.Devices)
	}
	if wal.Mount == nil || wal.Mount.FSType != "ext4" {
		t.Errorf("wal mount %+v", wal.Mount)
	}
}

// TestWhatDiffersFromFixtures: two fixture systems that differ in RAID level and
// write cache, as compare lists them.
func TestWhatDiffersFromFixtures(t *testing.T) {
	a := &results.Run{Format: results.FormatVersion, Label: "A", System: fixtureSystem(t, "raid10", "write back"), Steps: []results.Step{{Users: 1, TPS: 1}}}
	b := &results.Run{Format: results.FormatVersion, Label: "B", System: fixtureSystem(t, "raid5", "write through"), Steps: []results.Step{{Users: 1, TPS: 1}}}
	c, err := compare.Compare([]results.Input{{Path: "a.json", Run: a}, {Path: "b.json", Run: b}})
	if err != nil {
		t.Fatal(err)
	}
	got := c.Differences(1)
	want := []string{
		"data: md RAID: raid5 4 disks, 512 KiB chunk vs raid10 4 disks, 512 KiB chunk",
		"data: write cache: write through vs write back",
	}
	if !slices.Equal(got, want) {
		t.Errorf("differences\n got %q\nwant %q", got, want)
	}
	var buf strings.Builder
	if err := report.WriteComparisonText(c, &buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if i, j := strings.Index(out, "What differs (B vs A):"), strings.Index(out, "1 users"); i < 0 || j < i {
		t.Errorf("what differs must come before the figures:\n%s", out)
	}
}

// TestDescribeStorageRealDevices describes this machine's storage under a
// temporary directory: the device the file system reports, and its mount.
func TestDescribeStorageRealDevices(t *testing.T) {
	dir := t.TempDir()
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	sys, err := DescribeStorage(dir, "", os.Getpid())
	if err != nil {
		if unix.Major(uint64(st.Dev)) == 0 {
			t.Skipf("the temporary directory is not on a block device: %v", err)
		}
		t.Fatal(err)
	}
	if len(sys.Storage) != 1 || len(sys.Storage[0].Devices) == 0 {
		t.Fatalf("system %+v", sys)
	}
	top := sys.Storage[0].Devices[0]
	if top.Depth != 0 || top.SizeBytes <= 0 || top.Kind == "" {
		t.Errorf("top device %+v", top)
	}
	if want := fmt.Sprintf("%d:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev))); unix.Major(uint64(st.Dev)) != 0 && top.Number != want {
		t.Errorf("top device %s is %s, the directory's file system is on %s", top.Name, top.Number, want)
	}
	if m := sys.Storage[0].Mount; m == nil || m.FSType == "" || !strings.HasPrefix(dir, m.Point) {
		t.Errorf("mount %+v for %s", m, dir)
	}
	if wc := top.WriteCache; wc != "" && wc != "write back" && wc != "write through" {
		t.Errorf("write cache %q", wc)
	}
}
