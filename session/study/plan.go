package study

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/disk"
	"github.com/brokerbench/brokerbench/session/load"
	"github.com/brokerbench/brokerbench/session/replay"
	"github.com/brokerbench/brokerbench/session/run"
)

// Binder turns a workload's options, by flag name, into the command's options, as
// the command's own flags would (types, ranges, defaults): cmd/brokerbench binds
// them with its flag tables. A key the study sets itself (Owned) is refused.
type Binder interface {
	Run(opts map[string]any) (run.Options, error)
	Disk(opts map[string]any) (disk.Options, error)
	Replay(opts map[string]any) (replay.Options, error)
	Load(opts map[string]any) (load.Options, error)
}

// Owned are, by workload kind, the options the study sets for every run itself:
// where it runs and what it writes belong to the system and the study folder.
var Owned = map[string][]string{
	results.WorkloadRun: {"out", "label", "tag", "config", "repeat", "repeat-cold", "replace-disturbed",
		"shard", "start-at", "io-device", "io-node-exporter", "capture-io", "metrics-addr", "cpuprofile", "memprofile"},
	results.WorkloadDisk:   {"dir", "device", "allow-device-writes", "out", "label", "tag", "fio", "keep", "list", "json"},
	results.WorkloadReplay: {"target", "allow-device-writes", "allow-overwrite", "keep-target", "out", "label", "fio"},
	"load":                 {"drop", "resume", "shard"},
}

// The default number of repeats: the fewest that give a verdict (compare.MinRepeats).
const (
	defaultRepeats    = 3
	defaultMaxRepeats = 10
	maxRepeats        = 100
)

// Plan is a study file checked: every system, workload and option valid for every
// system it runs on, before anything runs.
type Plan struct {
	Name, Source, Dir string
	Baseline          string
	Order             string
	Seed              uint64
	Tags              map[string]string
	Repeats           Repeats
	Systems           []System
	Workloads         []Planned
	load              *load.Options
	base              string // the study file's folder
	// seedGiven: the file gave the seed (a resumed random study keeps its record's).
	seedGiven bool
}

// Planned is one workload with its options bound and its time estimated.
type Planned struct {
	Workload
	run      run.Options
	disk     disk.Options
	replay   replay.Options
	trace    string
	Estimate time.Duration
	Summary  string
	// capture (a run workload): the baseline's first repeat records its block I/O
	// for a replay workload's captureFrom; levels is its number of steps.
	capture bool
	levels  int
	// captureFrom (a replay workload) names the run workload whose capture it
	// replays: the trace of that run's last step on the baseline, repeat 1.
	captureFrom string
}

var nameRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// hasRuns tells whether the plan runs OLTP workloads (and so needs databases).
func (p *Plan) hasRuns() bool {
	for _, w := range p.Workloads {
		if w.Kind == results.WorkloadRun {
			return true
		}
	}
	return false
}

// Check makes a Plan of f (from the file at source), every option bound by b and
// checked for every system it runs on, with g's globals; nothing is touched.
// Every mistake is a usage error, the first one found.
func Check(f *File, source string, b Binder, g *session.Globals) (*Plan, error) {
	p := &Plan{Name: f.Name, Source: source, Baseline: f.Baseline, Order: f.Order, Seed: f.Seed, Tags: f.Tags, Repeats: f.Repeats, Systems: f.Systems}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(source), filepath.Ext(source))
	}
	if !nameRule.MatchString(p.Name) {
		return nil, session.Usagef("name %q: letters, digits, '.', '_' and '-', up to 64 (it names the study folder)", p.Name)
	}
	// Paths in the file are relative to its folder, so it runs the same from anywhere.
	// The study folder is an output: without out: it is the study's name in the
	// current folder, as every command's --out is.
	base := filepath.Dir(source)
	p.Dir = p.Name
	if f.Out != "" {
		p.Dir = relativeTo(base, f.Out)
	}
	for i := range p.Systems {
		s := &p.Systems[i]
		s.Dir, s.PGData = relativeTo(base, s.Dir), relativeTo(base, s.PGData)
		if strings.Contains(s.FIO, "/") {
			s.FIO = relativeTo(base, s.FIO)
		}
	}
	p.base = base
	if err := p.checkOrder(); err != nil {
		return nil, err
	}
	if err := p.checkRepeats(); err != nil {
		return nil, err
	}
	if err := p.checkSystems(); err != nil {
		return nil, err
	}
	if _, err := session.ParseTags(tagList(f.Tags)); err != nil {
		return nil, session.Usagef("tags: %v", err)
	}
	if len(f.Workloads) == 0 {
		return nil, session.Usagef("no workloads: give one or more of run, disk, replay under workloads")
	}
	needsLoad := false
	for _, w := range f.Workloads {
		pw, err := p.bind(w, b, g)
		if err != nil {
			return nil, err
		}
		needsLoad = needsLoad || w.Kind == results.WorkloadRun
		p.Workloads = append(p.Workloads, pw)
	}
	if f.Load != nil {
		if !needsLoad {
			return nil, session.Usagef("load: no run workload needs a database")
		}
		if err := refuseOwned("load", f.Load); err != nil {
			return nil, err
		}
		lo, err := b.Load(f.Load)
		if err != nil {
			return nil, session.Usagef("load: %s", session.OneLine(err.Error()))
		}
		if err := lo.Validate(); err != nil {
			return nil, session.Usagef("load: %s", session.OneLine(err.Error()))
		}
		p.load = &lo
	}
	return p, nil
}

func (p *Plan) checkOrder() error {
	switch p.Order {
	case "":
		p.Order = "interleaved"
	case "interleaved", "random":
	default:
		return session.Usagef("order %q: want interleaved (A B A B, the default) or random (each repeat's systems shuffled from seed)", p.Order)
	}
	p.seedGiven = p.Seed != 0
	if p.Order == "random" && p.Seed == 0 {
		p.Seed = uint64(time.Now().UnixNano())
	}
	return nil
}

func (p *Plan) checkRepeats() error {
	r := &p.Repeats
	if r.Target == 0 {
		if r.Figures != nil || r.Min != 0 || r.Max != 0 {
			return session.Usagef("repeats: figures, min and max go with a target")
		}
		if r.Count == 0 {
			r.Count = defaultRepeats
		}
		if r.Count < 1 || r.Count > maxRepeats {
			return session.Usagef("repeats %d: want 1 to %d (a verdict needs 3)", r.Count, maxRepeats)
		}
		return nil
	}
	if len(r.Figures) == 0 {
		return session.Usagef("repeats: a target needs the figures it is for, e.g. figures: [tps_e, disk.iops]")
	}
	for _, k := range r.Figures {
		if !knownFigure(k) {
			return session.Usagef("repeats: figure %q: want an OLTP figure (tps, tps_e, p95 ...) or disk.METRIC (disk.iops, disk.latency ...)", k)
		}
	}
	if r.Min == 0 {
		r.Min = defaultRepeats
	}
	if r.Max == 0 {
		r.Max = defaultMaxRepeats
	}
	if r.Min < 2 || r.Max < r.Min || r.Max > maxRepeats {
		return session.Usagef("repeats: min %d, max %d: want 2 <= min <= max <= %d (an interval needs 2 runs a side)", r.Min, r.Max, maxRepeats)
	}
	r.Count = r.Max
	return nil
}

// knownFigure tells whether k names a figure a repeats target can be for.
func knownFigure(k string) bool {
	if dk, ok := strings.CutPrefix(k, figures.DiskGatePrefix); ok {
		_, ok := figures.LookupDiskMetric(dk)
		return ok
	}
	_, ok := figures.LookupStepMetric(k)
	return ok
}

func (p *Plan) checkSystems() error {
	if len(p.Systems) < 2 {
		return session.Usagef("systems: a study compares two or more (one system's noise alone is run --repeat)")
	}
	seen := map[string]bool{}
	for i := range p.Systems {
		s := &p.Systems[i]
		if !nameRule.MatchString(s.Name) {
			return session.Usagef("system %d: name %q: letters, digits, '.', '_' and '-', up to 64 (it names the result files)", i+1, s.Name)
		}
		if seen[s.Name] {
			return session.Usagef("system %q is named twice", s.Name)
		}
		seen[s.Name] = true
		if _, err := session.ParseTags(tagList(s.Tags)); err != nil {
			return session.Usagef("system %s: tags: %v", s.Name, err)
		}
		if s.Dir != "" && s.Device != "" {
			return session.Usagef("system %s: give dir or device for its profiles and replays, not both", s.Name)
		}
		if s.AllowDeviceWrites != "" && s.AllowDeviceWrites != s.Device {
			return session.Usagef("system %s: allow-device-writes must name its device", s.Name)
		}
		if s.DB != "" && s.PGData != "" {
			return session.Usagef("system %s: give db (a server of yours) or pgdata (a managed one), not both", s.Name)
		}
		if s.Dir != "" {
			if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
				return session.Usagef("system %s: dir %s: not a folder", s.Name, s.Dir)
			}
		}
		if s.PGData == "" && s.DB == "" && s.Dir != "" {
			s.PGData = filepath.Join(s.Dir, "brokerbench-pgdata")
		}
	}
	if err := p.checkApart(); err != nil {
		return err
	}
	if p.Baseline == "" {
		p.Baseline = p.Systems[0].Name
	}
	if !seen[p.Baseline] {
		return session.Usagef("baseline %q is none of the systems", p.Baseline)
	}
	return nil
}

// checkApart refuses two systems in one place: the same folder, device, data
// folder or database would be one system measured twice, each run writing over
// the other's files.
func (p *Plan) checkApart() error {
	owner := map[string]string{}
	for _, s := range p.Systems {
		places := []string{s.Dir, s.Device, s.PGData}
		if s.DB != "" {
			places = append(places, database.Redact(s.DB))
		}
		for _, place := range places {
			if place == "" {
				continue
			}
			key := filepath.Clean(place)
			if other, ok := owner[key]; ok && other != s.Name {
				return session.Usagef("systems %s and %s both live in %s: give each its own", other, s.Name, place)
			}
			owner[key] = s.Name
		}
	}
	return nil
}
