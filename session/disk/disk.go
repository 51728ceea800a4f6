// Package disk is `brokerbench disk` without the command line: standard storage
// access-pattern profiles run on fio at rising numbers of outstanding I/Os against a
// test file it creates or a raw block device (session/device), with the device's
// own figures beside fio's, the result file written before the first step and
// after every step (docs/disk-profiles.md).
package disk

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/session"
)

// Options are what a disk session runs (the flags of `brokerbench disk`).
type Options struct {
	Dir, Device, AllowWrites string
	Size                     string
	Profiles                 []string
	ProfileFile              string
	FromRun                  string
	FromRunUsers             int
	Depths                   string
	BlockSizes               string
	Ramp, Measure            time.Duration
	Seed                     uint64
	Buffered, Keep           bool
	Out, Label               string
	Tags                     []string
	FIO                      string
	List, ListJSON           bool
	// Tool is brokerbench's version, for the result file.
	Tool string
}

// diskPlan is the checked options: what to run, where, how long.
type diskPlan struct {
	profiles []diskprofile.Profile
	levels   []int
	// blockSizes, when set, sweeps every profile's request size (sweep.go).
	blockSizes []string
	size       int64 // 0: the whole device
	tags       map[string]string
}

// plan checks every flag before anything touches the target: a typo must not cost a
// preconditioning pass.
func (o Options) plan(all []diskprofile.Profile, extra []diskprofile.Profile) (diskPlan, error) {
	var p diskPlan
	if (o.Dir == "") == (o.Device == "") {
		return p, session.Usagef("give one target: --dir DIR (a test file on a file system) or --device DEVICE")
	}
	if o.AllowWrites != "" && o.Device == "" {
		return p, session.Usagef("--allow-device-writes goes with --device")
	}
	if o.FromRunUsers < 0 || o.FromRunUsers > 0 && o.FromRun == "" {
		return p, session.Usagef("--from-run-users takes a user count of the --from-run file's steps")
	}
	if o.Ramp < 0 || o.Measure <= 0 {
		return p, session.Usagef("--measure must be positive and --ramp not negative")
	}
	levels, err := parseDepths(o.Depths)
	if err != nil {
		return p, err
	}
	p.levels = levels
	if p.blockSizes, err = parseBlockSizes(o.BlockSizes); err != nil {
		return p, err
	}
	size := o.Size
	if size == "" && o.Device == "" {
		size = "8GB"
	}
	if size != "" {
		if p.size, err = bytesize.Parse(size); err != nil {
			return p, session.Usagef("--size: %v", err)
		}
		if p.size < 1<<20 {
			return p, session.Usagef("--size %s: at least 1MiB", o.Size)
		}
	}
	names := o.Profiles
	switch {
	case len(names) == 1 && names[0] == "all":
		p.profiles = all
	case len(names) > 0:
		if p.profiles, err = diskprofile.Lookup(all, names); err != nil {
			return p, session.UsageError{Err: err}
		}
	case len(extra) > 0:
		p.profiles = extra
	case o.FromRun == "":
		p.profiles, _ = diskprofile.Lookup(all, diskprofile.DefaultProfiles)
	}
	if p.tags, err = session.ParseTags(o.Tags); err != nil {
		return p, err
	}
	return p, nil
}

func parseDepths(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 4096 {
			return nil, session.Usagef("--depths %q: want outstanding I/Os from 1 to 4096, comma-separated", s)
		}
		if slices.Contains(out, n) {
			return nil, session.Usagef("--depths %q: %d repeats", s, n)
		}
		out = append(out, n)
	}
	return out, nil
}

// listProfiles prints every profile with its fio options ({depth} is the step's).
func listProfiles(w io.Writer, all []diskprofile.Profile, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	}
	for _, p := range all {
		def := ""
		if slices.Contains(diskprofile.DefaultProfiles, p.Name) {
			def = " (default)"
		}
		fmt.Fprintf(w, "%s%s: %s\n", p.Name, def, p.Description)
		for _, line := range p.Describe() {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	fmt.Fprintln(w, "\nEvery step adds: filename=TARGET size=SIZE direct=1 time_based ramp_time=RAMP runtime=MEASURE")
	fmt.Fprintln(w, "randseed=SEED norandommap group_reporting percentile_list="+fio.PercentileList+"; {depth} is the step's outstanding I/Os.")
	return nil
}

// Run is one disk session: --list prints the profiles; otherwise every option is
// checked before the target is touched, then the profiles run step by step.
func Run(ctx context.Context, con session.Console, o Options) error {
	if o.List {
		all, _, err := o.profiles()
		if err != nil {
			return err
		}
		return listProfiles(con.Stdout, all, o.ListJSON)
	}
	plan, err := o.checked()
	if err != nil {
		return err
	}
	s := &diskSession{con: con, o: o, plan: plan}
	return s.measure(ctx)
}

// Steps is how many profile steps o runs, every option checked as Run checks them
// and nothing touched: a study plans its runs and their time with it before the
// first one starts.
func Steps(o Options) (int, error) {
	if o.List {
		return 0, session.Usagef("--list lists the profiles; it runs none")
	}
	p, err := o.checked()
	if err != nil {
		return 0, err
	}
	return len(p.profiles) * len(p.levels), nil
}

// profiles are the profiles o may pick from (the built-in ones and --profile-file's)
// and those --profile-file adds.
func (o Options) profiles() (all, extra []diskprofile.Profile, err error) {
	all = append([]diskprofile.Profile(nil), diskprofile.Builtin...)
	for i := range all {
		all[i].Source = "builtin"
	}
	if o.ProfileFile != "" {
		ps, err := diskprofile.LoadFile(o.ProfileFile)
		if err != nil {
			return nil, nil, session.UsageError{Err: err}
		}
		extra = ps
		all = append(all, ps...)
	}
	return all, extra, nil
}

// checked is o's plan, every option checked before the target is touched.
func (o Options) checked() (diskPlan, error) {
	if err := session.RefuseOutputOverInput([]session.Output{{Flag: "--out", Path: o.Out}}, []string{o.ProfileFile, o.FromRun}); err != nil {
		return diskPlan{}, err
	}
	all, extra, err := o.profiles()
	if err != nil {
		return diskPlan{}, err
	}
	if o.ListJSON {
		return diskPlan{}, session.Usagef("--json goes with --list")
	}
	plan, err := o.plan(all, extra)
	if err != nil {
		return plan, err
	}
	if o.FromRun != "" {
		fr, err := fromRunProfile(o.FromRun, o.FromRunUsers)
		if err != nil {
			return plan, err
		}
		plan.profiles = append(plan.profiles, fr)
	}
	plan.profiles = sweepProfiles(plan.profiles, plan.blockSizes)
	return plan, nil
}
