package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// What differed between two systems (docs/result-format.md, "system"): compare
// lists it before any figure, since a change of tps means little until the reader
// knows whether the write cache, the RAID level or a setting changed with it.

// aspect is one described property of a run's system, e.g. "data: write cache".
type aspect struct{ name, value string }

// systemAspects describes run r's system as comparable properties, in reading
// order: the database and its I/O settings, then each directory's storage from
// the file system down, then the user's tags.
func systemAspects(r *results.Run) []aspect {
	var out []aspect
	add := func(name, value string) {
		if value != "" {
			out = append(out, aspect{name, value})
		}
	}
	add("database", strings.TrimSpace(r.Database.Product+" "+r.Database.Version))
	add("memory cap", capText(r.Database.MemoryCapBytes))
	for _, k := range figures.SortedKeys(r.Database.Settings) {
		add("setting "+k, r.Database.Settings[k])
	}
	if r.System != nil {
		for _, st := range r.System.Storage {
			out = append(out, stackAspects(st)...)
		}
	}
	for _, k := range figures.SortedKeys(r.Tags) {
		add("tag "+k, r.Tags[k])
	}
	return out
}

// stackAspects are one directory's storage: its file system, the chain of layers,
// and per layer kind the settings that change I/O (several devices of a kind with
// different values are listed together).
func stackAspects(st results.StorageStack) []aspect {
	role := st.Role
	var out []aspect
	add := func(name, value string) {
		if value != "" {
			out = append(out, aspect{role + ": " + name, value})
		}
	}
	if m := st.Mount; m != nil {
		add("file system", m.FSType)
		add("mount options", m.Options)
	}
	addLayers(st.Devices, add)
	// What the disks are (model, write cache, rotational, size) is read at the
	// bottom of the stack, the devices built from nothing else: an md or dm
	// device's own write_cache only echoes its members'. The queue settings are
	// read on every layer, each of which queues I/O.
	var leaves []results.BlockDevice
	for _, d := range st.Devices {
		if len(d.Members) == 0 {
			leaves = append(leaves, d)
		}
	}
	for _, f := range deviceSettings {
		ds := leaves
		if f.all {
			ds = st.Devices
		}
		add(f.name, distinctValues(ds, f.of))
	}
	return out
}

// addLayers adds the chain of layer kinds from the top down ("dm → md → disk") and
// what each md RAID and dm target is, the layers whose shape changes I/O.
func addLayers(devices []results.BlockDevice, add func(name, value string)) {
	var chain []string
	byKind := map[string][]results.BlockDevice{}
	for _, d := range devices {
		byKind[d.Kind] = append(byKind[d.Kind], d)
		if len(chain) == 0 || chain[len(chain)-1] != d.Kind {
			chain = append(chain, d.Kind)
		}
	}
	add("layers", strings.Join(chain, " → "))
	for _, d := range byKind["md"] {
		v := d.RAIDLevel
		if d.RAIDDisks > 0 {
			v += fmt.Sprintf(" %d disks", d.RAIDDisks)
		}
		if d.ChunkBytes > 0 {
			v += ", " + bytesize.Format(d.ChunkBytes) + " chunk"
		}
		add("md RAID", strings.TrimSpace(v))
	}
	for _, d := range byKind["dm"] {
		add("dm target", d.DMTarget)
	}
}

// deviceSettings are the block device settings that change I/O, in the order a
// comparison lists them; all says the setting is read on every layer, not only on
// the disks at the bottom (stackAspects).
var deviceSettings = []struct {
	name string
	all  bool
	of   func(results.BlockDevice) string
}{
	{"disk model", false, func(d results.BlockDevice) string { return d.Model }},
	{"write cache", false, func(d results.BlockDevice) string { return d.WriteCache }},
	{"rotational", false, func(d results.BlockDevice) string {
		if d.Rotational == nil {
			return ""
		}
		return strconv.FormatBool(*d.Rotational)
	}},
	{"size", false, func(d results.BlockDevice) string {
		if d.SizeBytes == 0 {
			return ""
		}
		return bytesize.Format(d.SizeBytes)
	}},
	{"scheduler", true, func(d results.BlockDevice) string { return d.Scheduler }},
	{"nr_requests", true, func(d results.BlockDevice) string { return intText(d.NrRequests) }},
	{"read-ahead", true, func(d results.BlockDevice) string {
		if d.ReadAheadKB == 0 {
			return ""
		}
		return strconv.Itoa(d.ReadAheadKB) + " KB"
	}},
	{"I/O limit of the server's cgroup", true, func(d results.BlockDevice) string { return d.Throttle }},
	{"loop direct I/O", true, func(d results.BlockDevice) string {
		if d.DirectIO == nil {
			return ""
		}
		return strconv.FormatBool(*d.DirectIO)
	}},
}

// distinctValues lists the values devices give, each once: "write back" or
// "write back, write through".
func distinctValues(ds []results.BlockDevice, of func(results.BlockDevice) string) string {
	var vs []string
	for _, d := range ds {
		if v := of(d); v != "" && !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	return strings.Join(vs, ", ")
}

func intText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// Differences lists what differs between run r's system and the base's, run r's
// Value first as in every comparison: "data: write cache: write through vs write
// back". A property one side does not record is not a difference (an older file,
// a remote server) unless the other side records it for the same directory, which
// is shown as "-". Two databases (PostgreSQL and MariaDB) have settings of their
// own, not one setting with two values: each side's are listed together under its
// database's name (databaseSettings).
func (c *Comparison) Differences(r int) []string {
	a, b := systemAspects(c.Inputs[r].Run), systemAspects(c.Inputs[0].Run)
	ownSettings := differentDatabases(c.Inputs[r].Run, c.Inputs[0].Run)
	if ownSettings {
		isSetting := func(x aspect) bool { return strings.HasPrefix(x.name, "setting ") }
		a, b = slices.DeleteFunc(a, isSetting), slices.DeleteFunc(b, isSetting)
	}
	va, vb := aspectMap(a), aspectMap(b)
	var names []string
	for _, x := range append(slices.Clone(a), b...) {
		if !slices.Contains(names, x.name) {
			names = append(names, x.name)
		}
	}
	described := func(run *results.Run, name string) bool {
		role, _, ok := strings.Cut(name, ": ")
		if !ok || strings.HasPrefix(name, "setting ") || strings.HasPrefix(name, "tag ") {
			return true
		}
		if run.System == nil {
			return false
		}
		for _, st := range run.System.Storage {
			if st.Role == role {
				return true
			}
		}
		return false
	}
	var out []string
	for _, n := range names {
		x, y := va[n], vb[n]
		if x == y || !described(c.Inputs[r].Run, n) || !described(c.Inputs[0].Run, n) {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s vs %s", n, orDash(x), orDash(y)))
	}
	if ownSettings {
		out = append(out, databaseSettings(c.Inputs[r].Run)...)
		out = append(out, databaseSettings(c.Inputs[0].Run)...)
	}
	return out
}

// differentDatabases says whether two runs ran on different databases (products),
// whose settings are not the same settings.
func differentDatabases(a, b *results.Run) bool {
	return a.Database.Product != "" && b.Database.Product != "" && a.Database.Product != b.Database.Product
}

// databaseSettings lists a run's database settings under its database's name, in
// one line: "MariaDB settings: innodb_doublewrite=ON, sync_binlog=0"; none for a run
// that recorded none.
func databaseSettings(r *results.Run) []string {
	var kv []string
	for _, k := range figures.SortedKeys(r.Database.Settings) {
		kv = append(kv, k+"="+r.Database.Settings[k])
	}
	if len(kv) == 0 {
		return nil
	}
	return []string{r.Database.Product + " settings: " + strings.Join(kv, ", ")}
}

func aspectMap(as []aspect) map[string]string {
	m := map[string]string{}
	for _, a := range as {
		m[a.name] = a.value
	}
	return m
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
