package results

import (
	"path/filepath"
)

// Input is one result file given to compare or report, or one side of a
// comparison given as several files of the same configuration (run --repeat):
// Path and Run are then the first, Repeats the others.
type Input struct {
	Path    string
	Run     *Run
	Repeats []Input
	// Shown is the name a comparison gives the input when another input's Name is
	// the same (distinctNames).
	Shown string
}

// All is the side's runs: the input itself, then its repeats.
func (in Input) All() []Input {
	return append([]Input{{Path: in.Path, Run: in.Run, Shown: in.Shown}}, in.Repeats...)
}

// Name is how tables and legends call the run: its label, else its file name,
// with control characters escaped (Printable).
func (in Input) Name() string {
	if in.Shown != "" {
		return in.Shown
	}
	if in.Run != nil && in.Run.Label != "" {
		return Printable(in.Run.Label)
	}
	return Printable(filepath.Base(in.Path))
}
