package main

import "github.com/brokerbench/brokerbench/session"

// Files brokerbench did not create are never written over by accident
// (docs/faults.md, "Files brokerbench did not create"): the rules are the
// sessions' (session/files.go), and the commands keep the same.

// output is a file a command writes, with the flag that names it.
type output struct{ flag, path string }

// refuseOutputOverInput refuses the first output that is also one of the inputs:
// writing it would destroy what the command reads.
func refuseOutputOverInput(outs []output, inputs []string) error {
	so := make([]session.Output, len(outs))
	for i, o := range outs {
		so[i] = session.Output{Flag: o.flag, Path: o.path}
	}
	return session.RefuseOutputOverInput(so, inputs)
}

// readBounded reads a file a person names with a bound (session.ReadBounded).
var readBounded = session.ReadBounded

// maxConfigBytes bounds --config, a few dozen flags: far above any real one, small
// enough that /dev/zero or a wrong file costs a moment, not gigabytes of memory.
const maxConfigBytes = 1 << 20
