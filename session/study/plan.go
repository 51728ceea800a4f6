package study

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
		"shard", "start-at", "io-device", "capture-io", "metrics-addr", "cpuprofile", "memprofile"},
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
	base := filepath.Dir(source)
	p.Dir = f.Out
	if p.Dir == "" {
		p.Dir = p.Name
	}
	p.Dir = relativeTo(base, p.Dir)
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

// bind checks one workload: its options bound, then checked for every system.
func (p *Plan) bind(w Workload, b Binder, g *session.Globals) (Planned, error) {
	pw := Planned{Workload: w}
	where := fmt.Sprintf("workload %q (line %d)", w.Name, w.line)
	if !nameRule.MatchString(w.Name) {
		return pw, session.Usagef("%s: name: letters, digits, '.', '_' and '-', up to 64 (it names the result files)", where)
	}
	for _, q := range p.Workloads {
		if q.Name == w.Name {
			return pw, session.Usagef("%s is named twice", where)
		}
	}
	if err := refuseOwned(w.Kind, w.Options); err != nil {
		return pw, session.Usagef("%s: %s", where, err.Error())
	}
	fail := func(err error) (Planned, error) {
		return pw, session.Usagef("%s: %s", where, session.OneLine(err.Error()))
	}
	var err error
	switch w.Kind {
	case results.WorkloadRun:
		if pw.run, err = b.Run(w.Options); err != nil {
			return fail(err)
		}
	case results.WorkloadDisk:
		if pw.disk, err = b.Disk(w.Options); err != nil {
			return fail(err)
		}
		pw.disk.ProfileFile, pw.disk.FromRun = relativeTo(p.base, pw.disk.ProfileFile), relativeTo(p.base, pw.disk.FromRun)
	case results.WorkloadReplay:
		opts := maps(w.Options)
		trace, _ := opts["trace"].(string)
		from, _ := opts["capture"].(string)
		delete(opts, "trace")
		delete(opts, "capture")
		if pw.replay, err = b.Replay(opts); err != nil {
			return fail(err)
		}
		switch {
		case trace != "" && from != "":
			return fail(errors.New("give trace (a capture's folder) or capture (a run workload of this study), not both"))
		case from != "":
			if err := p.captureFor(&pw, from); err != nil {
				return fail(err)
			}
		case trace == "":
			return fail(errors.New("trace: the capture's folder (or its trace.iolog) to replay, or capture: a run workload of this study whose I/O to capture"))
		default:
			pw.trace = relativeTo(p.base, trace)
		}
	}
	for _, s := range p.Systems {
		est, summary, err := p.checkOn(&pw, s, g)
		if err != nil {
			return pw, session.Usagef("%s on system %s: %s", where, s.Name, session.OneLine(err.Error()))
		}
		pw.Estimate, pw.Summary = max(pw.Estimate, est), summary
	}
	return pw, nil
}

// checkOn checks workload w as it would run on system s (nothing is touched) and
// estimates its time there.
func (p *Plan) checkOn(w *Planned, s System, g *session.Globals) (time.Duration, string, error) {
	switch w.Kind {
	case results.WorkloadRun:
		if s.DB == "" && s.PGData == "" {
			return 0, "", errors.New("an OLTP run needs a database: give the system db, pgdata or dir")
		}
		o := p.runOptions(w, s, "check.json")
		sess, err := run.New(p.globals(g, s), o)
		if err != nil {
			return 0, "", err
		}
		pl := sess.Plan()
		w.levels = len(pl.Users)
		est := runOverhead + pl.Duration()
		if o.LimitOpts.FindMax {
			est = runOverhead + time.Duration(o.LimitOpts.MaxSteps)*pl.Step
		}
		return est, fmt.Sprintf("users %s; %s steps after %s warm-up", joinInts(pl.Users), session.ShortDuration(pl.Step), session.ShortDuration(pl.Warmup)), nil
	case results.WorkloadDisk:
		if s.Dir == "" && s.Device == "" {
			return 0, "", errors.New("storage profiles need the system's dir or device")
		}
		o := p.diskOptions(w, s, filepath.Join(os.TempDir(), "check.json"))
		n, err := disk.Steps(o)
		if err != nil {
			return 0, "", err
		}
		return time.Duration(n) * (o.Ramp + o.Measure), fmt.Sprintf("%s at %s outstanding", strings.Join(o.Profiles, ", "), o.Depths), nil
	default:
		if s.Dir == "" && s.Device == "" {
			return 0, "", errors.New("a replay needs the system's dir or device")
		}
		o := p.replayOptions(w, s, filepath.Join(os.TempDir(), "check.json"))
		if w.captureFrom != "" {
			return p.capturedReplay(w, o)
		}
		d, err := replay.Planned(o, w.trace)
		if err != nil {
			return 0, "", err
		}
		return d + replayOverhead, "trace " + w.trace, nil
	}
}

// runOverhead and replayOverhead are the time a run takes besides its steps (the
// server's start and stop, the consistency check) and a replay besides the
// trace's span (creating its target file): a guess, for the estimate only.
const (
	runOverhead    = 20 * time.Second
	replayOverhead = 5 * time.Second
)

// globals are g as a run on system s sees them: its database or managed server.
func (p *Plan) globals(g *session.Globals, s System) *session.Globals {
	sg := *g
	sg.DB, sg.PGData, sg.ServerMemory = s.DB, s.PGData, s.ServerMemory
	if s.DB != "" {
		sg.PGData = ""
	}
	return &sg
}

func (p *Plan) runOptions(w *Planned, s System, out string) run.Options {
	o := w.run
	o.Out, o.Label, o.IODevices = out, s.Name, s.IODevices
	o.Tags = p.tags(s)
	return o
}

func (p *Plan) diskOptions(w *Planned, s System, out string) disk.Options {
	o := w.disk
	o.Dir, o.Device, o.AllowWrites = s.Dir, s.Device, s.AllowDeviceWrites
	o.Out, o.Label, o.Tags = out, s.Name, p.tags(s)
	if s.FIO != "" {
		o.FIO = s.FIO
	}
	return o
}

// replayFile is the file a replay on a system's folder writes and removes.
const replayFile = "brokerbench-replay.dat"

func (p *Plan) replayOptions(w *Planned, s System, out string) replay.Options {
	o := w.replay
	o.Target, o.AllowWrites = s.Device, s.AllowDeviceWrites
	if s.Dir != "" {
		o.Target = filepath.Join(s.Dir, replayFile)
	}
	o.Out, o.Label = out, s.Name
	if s.FIO != "" {
		o.FIO = s.FIO
	}
	return o
}

// tags are a run's tags: the study's, the system's, and the study's name (the
// system and the workload name the file and label it; as tags they would read as
// a difference between every two systems).
func (p *Plan) tags(s System) []string {
	all := map[string]string{}
	for k, v := range p.Tags {
		all[k] = v
	}
	for k, v := range s.Tags {
		all[k] = v
	}
	all["study"] = p.Name
	return tagList(all)
}

func tagList(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

func refuseOwned(kind string, opts map[string]any) error {
	for k := range opts {
		if slices.Contains(Owned[kind], k) {
			return fmt.Errorf("%s: the study sets %s itself (from the system, or in the study folder)", k, k)
		}
	}
	return nil
}

func maps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// where says where system s lives, as shown: a database URL without its password.
// runs says whether the plan has an OLTP run (else the database is not shown).
func where(s System, runs bool) []string {
	var out []string
	if s.Dir != "" {
		out = append(out, "folder "+s.Dir)
	}
	if s.Device != "" {
		out = append(out, "device "+s.Device)
	}
	if s.DB != "" {
		out = append(out, "database "+database.Redact(s.DB))
	} else if s.PGData != "" && runs {
		out = append(out, "managed PostgreSQL in "+s.PGData)
	}
	if s.ServerMemory != "" {
		out = append(out, "server memory "+s.ServerMemory)
	}
	return out
}

// relativeTo is path taken relative to base, unless it is absolute or empty.
func relativeTo(base, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(base, path)
}
