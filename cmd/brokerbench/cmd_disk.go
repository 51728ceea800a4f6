package main

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/session/disk"
)

// addDiskFlags binds the flags of `brokerbench disk` to the session's options.
func addDiskFlags(c *cobra.Command, o *disk.Options) {
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
	var o disk.Options
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
			o.Tool = g.Tool
			return disk.Run(cmd.Context(), g.Console, o)
		},
	}
	addDiskFlags(c, &o)
	return c
}
