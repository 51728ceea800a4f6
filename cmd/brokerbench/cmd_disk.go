package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/internal/memcap"
)

// diskOptions are the flags of `brokerbench disk`.
type diskOptions struct {
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
}

func (o *diskOptions) AddFlags(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.Dir, "dir", "", "run on a test file in `DIR` (on the file system under test)")
	f.StringVar(&o.Device, "device", "", "run on the raw block `DEVICE` instead (reading profiles only, unless --allow-device-writes names it)")
	f.StringVar(&o.AllowWrites, "allow-device-writes", "", "let the profiles write to `DEVICE`, destroying its data (must name --device)")
	f.StringVar(&o.Size, "size", "", "the test file's size (default 8GB), or the part of --device used (default: the whole device)")
	f.StringSliceVar(&o.Profiles, "profile", nil, "profiles to run, comma-separated or repeated, or all (default "+strings.Join(diskprofile.DefaultProfiles, ",")+"; see --list)")
	f.StringVar(&o.ProfileFile, "profile-file", "", "add the profiles defined in `FILE` (JSON, as --list --json prints them); they run unless --profile picks others")
	f.StringVar(&o.FromRun, "from-run", "", "add the profile derived from the measured I/O of the OLTP result file `RUN.json`")
	f.IntVar(&o.FromRunUsers, "from-run-users", 0, "with --from-run: the step to derive from, by users (default: the most users with storage figures)")
	f.StringVar(&o.Depths, "depths", "1,4,16,64", "outstanding I/Os of the steps, comma-separated")
	f.StringVar(&o.BlockSizes, "block-sizes", "", "sweep the request size: run every profile at each of these sizes (e.g. 512,4k,64k,1m), each a step")
	f.DurationVar(&o.Ramp, "ramp", 10*time.Second, "run each step this long before measuring")
	f.DurationVar(&o.Measure, "measure", time.Minute, "measured time of each step")
	f.Uint64Var(&o.Seed, "seed", 1, "fio's random seed: the same seed gives the same offsets and sizes on every system")
	f.BoolVar(&o.Buffered, "buffered", false, "go through the page cache instead of direct I/O (it hides the storage)")
	f.BoolVar(&o.Keep, "keep", false, "keep the test file after the run")
	f.StringVar(&o.Out, "out", "disk.json", "write the result file to `FILE`")
	f.StringVar(&o.Label, "label", "", "your name for this run, e.g. \"H810 RAID10\"")
	f.StringArrayVar(&o.Tags, "tag", nil, "free-form fact key=value (repeatable)")
	f.StringVar(&o.FIO, "fio", "fio", "the fio binary")
	f.BoolVar(&o.List, "list", false, "print the profiles and the fio options each becomes, then exit")
	f.BoolVar(&o.ListJSON, "json", false, "with --list: print the profiles as JSON, the form --profile-file reads")
}

func newDiskCommand(g *globalOptions) *cobra.Command {
	var o diskOptions
	c := &cobra.Command{
		Use:   "disk (--dir DIR | --device DEVICE) [--profile NAME...] [--depths 1,4,16,64]",
		Short: "Measure what the storage itself can do: standard access-pattern profiles on fio",
		Long: `disk runs standard access-pattern profiles (streaming, restore, database, file server, Iometer's
file server, web server and workstation, the database's WAL and checkpoint, or one derived from
an OLTP run's measured I/O) at rising numbers of outstanding I/Os, on fio, against a test file
on the file system under test (--dir) or a raw block device (--device). Each step ramps up, then
measures IOPS, MB/s and completion latency per direction, beside the device's own figures.

The test file (--size, default 8 GB) is created by brokerbench, written in full before the
first step, and removed afterwards unless --keep. Direct I/O is the default. The result file
(kind "disk") is read by report and compare, which also compares it beside OLTP runs of the
same systems. Needs fio (apt-get install fio).`,
		Example: `  brokerbench disk --list
  brokerbench disk --dir /mnt/array1 --label "H810 RAID10" --out h810-disk.json
  brokerbench disk --dir /mnt/array1 --size 1GB --profile database,wal --depths 1,8 --ramp 2s --measure 10s
  brokerbench disk --dir /mnt/array1 --from-run h810.json --out h810-shape.json
  brokerbench compare h800.json h810.json h800-disk.json h810-disk.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDisk(cmd.Context(), g, o)
		},
	}
	o.AddFlags(c)
	return c
}

// diskPlan is the checked options: what to run, where, how long.
type diskPlan struct {
	profiles []diskprofile.Profile
	levels   []int
	// blockSizes, when set, sweeps every profile's request size (disk_sweep.go).
	blockSizes []string
	size       int64 // 0: the whole device
	tags       map[string]string
}

// plan checks every flag before anything touches the target: a typo must not cost a
// preconditioning pass.
func (o diskOptions) plan(all []diskprofile.Profile, extra []diskprofile.Profile) (diskPlan, error) {
	var p diskPlan
	if (o.Dir == "") == (o.Device == "") {
		return p, usagef("give one target: --dir DIR (a test file on a file system) or --device DEVICE")
	}
	if o.AllowWrites != "" && o.Device == "" {
		return p, usagef("--allow-device-writes goes with --device")
	}
	if o.FromRunUsers < 0 || o.FromRunUsers > 0 && o.FromRun == "" {
		return p, usagef("--from-run-users takes a user count of the --from-run file's steps")
	}
	if o.Ramp < 0 || o.Measure <= 0 {
		return p, usagef("--measure must be positive and --ramp not negative")
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
		if p.size, err = memcap.ParseSize(size); err != nil {
			return p, usagef("--size: %v", err)
		}
		if p.size < 1<<20 {
			return p, usagef("--size %s: at least 1MiB", o.Size)
		}
	}
	names := o.Profiles
	switch {
	case len(names) == 1 && names[0] == "all":
		p.profiles = all
	case len(names) > 0:
		if p.profiles, err = diskprofile.Lookup(all, names); err != nil {
			return p, usageError{Err: err}
		}
	case len(extra) > 0:
		p.profiles = extra
	case o.FromRun == "":
		p.profiles, _ = diskprofile.Lookup(all, diskprofile.DefaultProfiles)
	}
	if p.tags, err = parseTags(o.Tags); err != nil {
		return p, err
	}
	return p, nil
}

func parseDepths(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 4096 {
			return nil, usagef("--depths %q: want outstanding I/Os from 1 to 4096, comma-separated", s)
		}
		if slices.Contains(out, n) {
			return nil, usagef("--depths %q: %d repeats", s, n)
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

func runDisk(ctx context.Context, g *globalOptions, o diskOptions) error {
	all := append([]diskprofile.Profile(nil), diskprofile.Builtin...)
	for i := range all {
		all[i].Source = "builtin"
	}
	if !o.List {
		if err := refuseOutputOverInput([]output{{"--out", o.Out}}, []string{o.ProfileFile, o.FromRun}); err != nil {
			return err
		}
	}
	var extra []diskprofile.Profile
	if o.ProfileFile != "" {
		ps, err := diskprofile.LoadFile(o.ProfileFile)
		if err != nil {
			return usageError{Err: err}
		}
		extra = ps
		all = append(all, ps...)
	}
	if o.List {
		return listProfiles(g.Stdout, all, o.ListJSON)
	}
	if o.ListJSON {
		return usagef("--json goes with --list")
	}
	plan, err := o.plan(all, extra)
	if err != nil {
		return err
	}
	if o.FromRun != "" {
		fr, err := fromRunProfile(o.FromRun, o.FromRunUsers)
		if err != nil {
			return err
		}
		plan.profiles = append(plan.profiles, fr)
	}
	plan.profiles = sweepProfiles(plan.profiles, plan.blockSizes)
	s := &diskSession{g: g, o: o, plan: plan}
	return s.measure(ctx)
}
