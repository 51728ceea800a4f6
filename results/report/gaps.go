package report

import (
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// UnavailableSize is the key of Database.Unavailable for the database's size.
const UnavailableSize = "size_bytes"

// serverNotes are the lines a report prints under a run's identity: what the file
// says about the server (Database.Notes), and which figures the run could not give
// and why, so a run without them is not read as one that measured zero.
func serverNotes(r *results.Run) []string {
	var out []string
	for _, n := range r.Database.Notes {
		out = append(out, "server: "+n)
	}
	if why := ioMissing(r); why != "" {
		out = append(out, "not measured: IOPS, I/O per transaction and the storage regime (no I/O source: "+why+")")
	}
	if why := r.Database.Unavailable[UnavailableSize]; why != "" && r.Database.SizeBytes == 0 {
		out = append(out, "not measured: the database's size ("+why+"); compare cannot check that runs used the same data")
	}
	if r.Settle != nil {
		out = append(out, r.Settle.Summary())
	}
	return out
}

// ioMissing returns why no step has I/O figures (their note says), or "" when
// some step has them or the steps recorded none (I/O sampling turned off).
func ioMissing(r *results.Run) string {
	if len(r.Steps) == 0 || figures.HasIO(r) {
		return ""
	}
	var notes []string
	for i := range r.Steps {
		io := r.Steps[i].IO
		if io == nil {
			return ""
		}
		if n := strings.TrimPrefix(io.Note, "no usable I/O source: "); n != "" && !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	if len(notes) == 0 {
		return "the steps give no reason"
	}
	return strings.Join(notes, "; ")
}
