package study

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/disk"
	"github.com/brokerbench/brokerbench/session/replay"
	"github.com/brokerbench/brokerbench/session/run"
)

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
		opts := maps.Clone(w.Options)
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
		return est, fmt.Sprintf("%s; %s steps after %s warm-up", figures.AtUsers(pl.Users), session.ShortDuration(pl.Step), session.ShortDuration(pl.Warmup)), nil
	case results.WorkloadDisk:
		if s.Dir == "" && s.Device == "" {
			return 0, "", errors.New("storage profiles need the system's dir or device")
		}
		o := p.diskOptions(w, s, filepath.Join(os.TempDir(), "check.json"))
		n, err := disk.Steps(o)
		if err != nil {
			return 0, "", err
		}
		profiles := strings.Join(o.Profiles, ", ")
		if profiles == "" {
			profiles = "the default profiles"
		}
		return time.Duration(n) * (o.Ramp + o.Measure), fmt.Sprintf("%s at %s outstanding", profiles, o.Depths), nil
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
	o.Out, o.Label, o.IODevices, o.IONodeExp = out, s.Name, s.IODevices, s.IONodeExporter
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
