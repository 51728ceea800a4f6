package main

import (
	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/session/replay"
)

func newReplayCommand(g *globalOptions) *cobra.Command {
	var o replay.Options
	c := &cobra.Command{
		Use:   "replay TRACE --target FILE|DEVICE [--speed N | --asap] [--span START:LEN]",
		Short: "Replay a captured block-I/O trace on another target through fio, and say how faithfully",
		Long: `replay sends every request of a trace written by brokerbench capture (its folder, or the
trace.iolog in it) to --target through fio (read_iolog, replay_redirect): at the captured timing,
--speed N times its rate, or --asap (in order, as fast as the captured outstanding I/Os allow). It
reports per direction IOPS, MB/s and latency, and the replay's fidelity: requests replayed of
those captured, its duration against the captured one, and how far behind the trace's timestamps
it fell. The result file (kind "disk") is read by report and compare.

A FILE target is created and written in full when missing, and removed after the replay unless
--keep-target; an existing file is only read (a trace without writes, or --skip-writes) unless
--allow-overwrite names it. A DEVICE target is used only when it is not mounted or in use, and
written only when --allow-device-writes names it (--skip-writes replays the reads alone).
Offsets beyond the target are refused unless mapped: --span START:LEN confines the replay to
part of the target (short-stroking), --scale and --align are fio's replay_scale and
replay_align. See docs/io-capture.md.`,
		Example: `  brokerbench replay cap1 --target /mnt/ssd/replay.dat --out ssd.json
  brokerbench replay cap1 --target /dev/sdc --allow-device-writes /dev/sdc --span 0:36GB --out sdc-outer.json
  brokerbench replay cap1 --target /dev/sdb --skip-writes --asap --out sdb-reads.json
  brokerbench compare ssd.json sdc-outer.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Tool = g.Tool
			return replay.Run(cmd.Context(), g.Console, o, args[0])
		},
	}
	addReplayFlags(c, &o)
	return c
}

// addReplayFlags binds replay's flags (the study binds a replay workload's options with them too).
func addReplayFlags(c *cobra.Command, o *replay.Options) {
	f := c.Flags()
	f.StringVar(&o.Target, "target", "", "replay onto `FILE` or block DEVICE")
	f.StringVar(&o.AllowWrites, "allow-device-writes", "", "let the replay write to `DEVICE`, destroying its data (must name --target)")
	f.StringVar(&o.AllowOverwrite, "allow-overwrite", "", "let the replay write to the existing `FILE`, changing its contents (must name --target)")
	f.BoolVar(&o.KeepTarget, "keep-target", false, "keep the target file brokerbench created, instead of removing it after the replay")
	f.Float64Var(&o.Speed, "speed", 1, "replay at N times the captured rate (2 = twice as fast)")
	f.BoolVar(&o.ASAP, "asap", false, "ignore the timing: replay in order, as fast as the outstanding I/Os allow")
	f.BoolVar(&o.SkipWrites, "skip-writes", false, "replay only the reads: for a device that holds data")
	f.StringVar(&o.Span, "span", "", "confine the replay to `START:LEN` of the target (sizes such as 0:36GB)")
	f.Int64Var(&o.Scale, "scale", 0, "divide every offset by `N` (fio's replay_scale)")
	f.Int64Var(&o.Align, "align", 0, "align every offset to `N` bytes, a power of 2 (fio's replay_align)")
	f.IntVar(&o.Depth, "depth", 0, "outstanding I/Os fio may keep (default: the capture's maximum)")
	f.StringVar(&o.Out, "out", "replay.json", "write the result file to `FILE`")
	f.StringVar(&o.Label, "label", "", "your name for this replay, e.g. \"sdc outer 36GB\"")
	f.StringVar(&o.FIO, "fio", "fio", "the fio binary")
}
