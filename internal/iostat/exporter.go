package iostat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/brokerbench/brokerbench/database"
)

// nodeExporter scrapes a remote host's node_exporter (docs/storage.md §2.1). Its diskstats
// metrics carry the same kernel counters as /proc/diskstats (ms fields as seconds),
// and node_time_seconds is the host's clock, used for interval lengths.
type nodeExporter struct {
	url     string
	client  *http.Client
	devices []Device
	note    string
	now     func() time.Time
	// hostNote says why the host figures are missing ("" when they are there).
	hostNote string
}

var _ Source = (*nodeExporter)(nil)

func (n *nodeExporter) Name() string      { return SourceNodeExporter }
func (n *nodeExporter) Devices() []Device { return n.devices }
func (n *nodeExporter) Note() string      { return n.note }
func (n *nodeExporter) Close() error {
	n.client.CloseIdleConnections()
	return nil
}

// Metric names of node_exporter's diskstats and time collectors.
const (
	mReads      = "node_disk_reads_completed_total"
	mWrites     = "node_disk_writes_completed_total"
	mReadBytes  = "node_disk_read_bytes_total"
	mWriteBytes = "node_disk_written_bytes_total"
	mReadTime   = "node_disk_read_time_seconds_total"
	mWriteTime  = "node_disk_write_time_seconds_total"
	mBusy       = "node_disk_io_time_seconds_total"
	mWeighted   = "node_disk_io_time_weighted_seconds_total"
	mTime       = "node_time_seconds"
)

// scrapeURL asks only for the collectors needed, which keeps the payload small
// (node_exporter honours collect[]); withHost adds the host figures' (docs/host.md).
func scrapeURL(raw string, withHost bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("--io-node-exporter %q: want a URL like http://dbhost:9100/metrics", database.RedactURL(raw))
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/metrics"
	}
	q := u.Query()
	if _, ok := q["collect[]"]; !ok {
		q["collect[]"] = []string{"diskstats", "filesystem", "time"}
		if withHost {
			q["collect[]"] = append(q["collect[]"], hostCollectors...)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func openNodeExporter(ctx context.Context, raw string, names []string, timeout time.Duration, dataDir string) (*nodeExporter, error) {
	u, err := scrapeURL(raw, true)
	if err != nil {
		return nil, err
	}
	n := &nodeExporter{url: u, client: &http.Client{Timeout: timeout}, now: time.Now}
	fams, err := n.scrape(ctx)
	var refused *statusError
	if errors.As(err, &refused) && refused.code == http.StatusBadRequest {
		// node_exporter answers 400 to a collect[] naming a collector it has
		// disabled: keep the disks and go without the host figures.
		n.url, _ = scrapeURL(raw, false)
		n.hostNote = fmt.Sprintf("the exporter refused the host collectors (%s): %v", strings.Join(hostCollectors, ", "), err)
		fams, err = n.scrape(ctx)
	}
	if err != nil {
		// net/http masks a userinfo password in its errors, not a token in the query.
		return nil, database.Scrubbed(fmt.Errorf("--io-node-exporter: %w", err), urlSecrets(raw)...)
	}
	if n.hostNote == "" && exporterHost(fams) == nil {
		n.hostNote = "the exporter has no " + mCPU + " (is its cpu collector enabled?)"
	}
	have := exporterDevices(fams)
	if len(have) == 0 {
		return nil, fmt.Errorf("--io-node-exporter %s: no %s metrics (is the diskstats collector enabled?)", database.RedactURL(raw), mReads)
	}
	if len(names) > 0 {
		for _, arg := range names {
			name, role, hasRole := strings.Cut(arg, "=")
			name = filepath.Base(strings.TrimSpace(name))
			if !have[name] {
				return nil, fmt.Errorf("--io-device %s: the exporter has no such device (have: %s)", arg, strings.Join(sortedKeys(have), ", "))
			}
			if !hasRole {
				role = RoleUnknown
			}
			n.devices = append(n.devices, Device{Name: name, Role: role, InTotals: true})
		}
		return n, nil
	}
	// The data directory's filesystem names its device (longest mount point that
	// contains the path); the WAL directory may be a symlink elsewhere, which cannot be
	// seen from here, so only the data role is known.
	if dataDir != "" {
		if dev := exporterDeviceOf(fams, dataDir, have); dev != "" {
			n.devices = []Device{{Name: dev, Role: RoleData, InTotals: true}}
			n.note = "device of the data directory's filesystem; a WAL elsewhere is not included (name it with --io-device DEV=wal)"
			return n, nil
		}
	}
	// Without names, count the host's whole physical disks: partitions, stacked
	// devices (dm, md) and RAM or loop devices would count the same I/O twice or
	// nothing at all. Which of them hold the database is unknown from here.
	for _, name := range sortedKeys(have) {
		if !remoteSkip.MatchString(name) {
			n.devices = append(n.devices, Device{Name: name, Role: RoleUnknown, InTotals: true})
		}
	}
	if len(n.devices) == 0 {
		for _, name := range sortedKeys(have) {
			n.devices = append(n.devices, Device{Name: name, Role: RoleUnknown, InTotals: true})
		}
	}
	n.note = "all whole disks of the exporter's host; name the database's devices with --io-device to narrow it"
	return n, nil
}

// exporterDeviceOf maps a path on the exporter's host to a diskstats device through
// node_filesystem_size_bytes{device, mountpoint}: /dev/sdb1 is looked up as sdb1, or
// as its disk sdb when the exporter leaves partitions out (its default);
// /dev/mapper/NAME through node_disk_device_mapper_info. "" when nothing fits.
func exporterDeviceOf(fams map[string]*dto.MetricFamily, path string, have map[string]bool) string {
	f := fams["node_filesystem_size_bytes"]
	if f == nil {
		return ""
	}
	best, bestLen := "", -1
	for _, m := range f.GetMetric() {
		mp := label(m, "mountpoint")
		if within(path, mp) && len(mp) > bestLen {
			best, bestLen = label(m, "device"), len(mp)
		}
	}
	if !strings.HasPrefix(best, "/dev/") {
		return ""
	}
	name := filepath.Base(best)
	if strings.HasPrefix(best, "/dev/mapper/") {
		if mf := fams["node_disk_device_mapper_info"]; mf != nil {
			for _, m := range mf.GetMetric() {
				if label(m, "name") == name {
					name = label(m, "device")
				}
			}
		}
	}
	if have[name] {
		return name
	}
	if disk := diskOfPartition(name); disk != name && have[disk] {
		return disk
	}
	return ""
}

// diskOfPartition strips a partition number: sdb1 → sdb, nvme0n1p2 → nvme0n1,
// mmcblk0p1 → mmcblk0; other names come back unchanged.
func diskOfPartition(name string) string {
	for _, re := range partitionNames {
		if m := re.FindStringSubmatch(name); m != nil {
			return m[1]
		}
	}
	return name
}

var partitionNames = []*regexp.Regexp{
	regexp.MustCompile(`^((?:nvme\d+n\d+)|(?:mmcblk\d+))p\d+$`),
	regexp.MustCompile(`^((?:h|s|v|xv)d[a-z]+)\d+$`),
}

// remoteSkip matches the names not counted by default: partitions (sda1, nvme0n1p2,
// mmcblk0p1), stacked devices (dm-N, mdN) and loop, RAM, floppy and optical devices.
var remoteSkip = regexp.MustCompile(`^((h|s|v|xv)d[a-z]+\d+|nvme\d+n\d+p\d+|mmcblk\d+p\d+|dm-\d+|md\d+|loop\d+|z?ram\d+|fd\d+|sr\d+)$`)

func (n *nodeExporter) scrape(ctx context.Context) (map[string]*dto.MetricFamily, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := n.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{url: database.RedactURL(n.url), code: resp.StatusCode, status: resp.Status}
	}
	return parseExposition(io.LimitReader(resp.Body, 32<<20))
}

// urlSecrets are the secrets a URL holds (its password, its secret query
// parameters' values), for scrubbing an error that quotes it.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var s []string
	if p, ok := u.User.Password(); ok {
		s = append(s, p)
	}
	for k, vs := range u.Query() {
		if database.SecretParam(k) {
			s = append(s, vs...)
		}
	}
	return s
}

// statusError is an exporter's answer other than 200 OK (its url without secrets).
type statusError struct {
	url, status string
	code        int
}

func (e *statusError) Error() string { return e.url + ": HTTP " + e.status }

// parseExposition parses the Prometheus text format.
func parseExposition(r io.Reader) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("parse exporter metrics: %w", err)
	}
	return fams, nil
}

func exporterDevices(fams map[string]*dto.MetricFamily) map[string]bool {
	out := map[string]bool{}
	if f := fams[mReads]; f != nil {
		for _, m := range f.GetMetric() {
			if d := label(m, "device"); d != "" {
				out[d] = true
			}
		}
	}
	return out
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

func value(m *dto.Metric) float64 {
	switch {
	case m.GetCounter() != nil:
		return m.GetCounter().GetValue()
	case m.GetGauge() != nil:
		return m.GetGauge().GetValue()
	case m.GetUntyped() != nil:
		return m.GetUntyped().GetValue()
	}
	return math.NaN()
}

func (n *nodeExporter) Snapshot(ctx context.Context) (*Snapshot, error) {
	fams, err := n.scrape(ctx)
	if err != nil {
		return nil, err
	}
	s := exporterSnapshot(fams, n.devices)
	s.At = n.now()
	if n.hostNote == "" {
		s.Host = exporterHost(fams)
	}
	return s, nil
}

// exporterSnapshot converts one scrape: counts and bytes as they are, seconds back to
// µs. The ms → s conversion kept the kernel's 32-bit wrap, so the same modulus
// applies.
func exporterSnapshot(fams map[string]*dto.MetricFamily, devices []Device) *Snapshot {
	s := &Snapshot{Devices: map[string]Counters{}}
	if f := fams[mTime]; f != nil && len(f.GetMetric()) > 0 {
		if v := value(f.GetMetric()[0]); v > 0 && !math.IsNaN(v) {
			sec, frac := math.Modf(v)
			s.RemoteAt = time.Unix(int64(sec), int64(frac*1e9))
		}
	}
	want := map[string]bool{}
	for _, d := range devices {
		want[d.Name] = true
	}
	per := map[string]map[string]float64{}
	for _, name := range []string{mReads, mWrites, mReadBytes, mWriteBytes, mReadTime, mWriteTime, mBusy, mWeighted} {
		f := fams[name]
		if f == nil {
			continue
		}
		for _, m := range f.GetMetric() {
			dev := label(m, "device")
			if !want[dev] {
				continue
			}
			if per[dev] == nil {
				per[dev] = map[string]float64{}
			}
			per[dev][name] = value(m)
		}
	}
	for dev, v := range per {
		if _, ok := v[mReads]; !ok {
			continue
		}
		c := Counters{
			ReadOps:    toUint(v[mReads], 1),
			WriteOps:   toUint(v[mWrites], 1),
			ReadBytes:  toUint(v[mReadBytes], 1),
			WriteBytes: toUint(v[mWriteBytes], 1),
			TimeWrap:   kernelTimeWrap,
		}
		for _, t := range []struct {
			metric string
			dst    *uint64
			has    Fields
		}{{mReadTime, &c.ReadTime, HasReadTime}, {mWriteTime, &c.WriteTime, HasWriteTime},
			{mBusy, &c.BusyTime, HasBusyTime}, {mWeighted, &c.QueueTime, HasQueueTime}} {
			if x, ok := v[t.metric]; ok {
				*t.dst = toUint(x, 1e6)
				c.Has |= t.has
			}
		}
		s.Devices[dev] = c
	}
	return s
}

func toUint(v, scale float64) uint64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return uint64(math.Round(v * scale))
}
