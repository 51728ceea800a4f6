package main

import (
	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/session/capture"
)

// The files a capture writes in its --out folder, and run --capture-io in each
// step's (the command's tests read them).
const (
	captureTraceFile   = capture.TraceFile
	captureSummaryFile = capture.SummaryFile
)

func newCaptureCommand(g *globalOptions) *cobra.Command {
	var o capture.Options
	c := &cobra.Command{
		Use:   "capture (--dir DIR | --device DEVICE | --blktrace FILE)... --out FOLDER [--duration D]",
		Short: "Record every block request of the storage under a folder or of a device, as a replayable fio trace",
		Long: `capture records the block requests the kernel issues to the devices under --dir (resolved as the
I/O sampler resolves them: through partitions, dm, md and loop to the whole disks) or to --device,
for --duration or until Ctrl-C, from the kernel's block trace events in a trace instance of
brokerbench's own. It writes FOLDER/trace.iolog (fio's iolog version 3: fio --read_iolog replays
it, and so does brokerbench replay) and FOLDER/capture.json (requests, read share, sizes, the
offsets spanned, outstanding I/Os, issue-to-completion latency, lost events). Needs root or
CAP_SYS_ADMIN. --blktrace turns the binary files blktrace wrote elsewhere (every CPU's
NAME.blktrace.N) into the same trace and summary instead. See docs/io-capture.md.`,
		Example: `  brokerbench capture --dir /var/lib/postgresql/data --duration 60s --out cap1
  brokerbench capture --device /dev/nvme1n1 --out cap2        # until Ctrl-C
  brokerbench capture --blktrace 'sdb.blktrace.*' --out cap3   # blktrace's files
  brokerbench replay cap1 --target /mnt/other/replay.dat`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return capture.Run(cmd.Context(), g.Console, o) },
	}
	f := c.Flags()
	f.StringArrayVar(&o.Dirs, "dir", nil, "capture the devices under `DIR` (repeatable: data and WAL folders)")
	f.StringArrayVar(&o.Devices, "device", nil, "capture the block `DEVICE` (repeatable)")
	f.DurationVar(&o.Duration, "duration", 0, "how long to capture (default: until Ctrl-C)")
	f.StringVar(&o.Out, "out", "", "write the trace and its summary into `FOLDER` (created; must not hold a trace)")
	f.StringArrayVar(&o.Blktrace, "blktrace", nil, "read blktrace's binary `FILE` (repeatable, or a pattern: 'sdb.blktrace.*') instead of capturing")
	return c
}
