package session

import (
	"fmt"
	"io"

	"github.com/brokerbench/brokerbench/results"
)

// Console is where a session speaks: results on Stdout, progress on Stderr unless
// Quiet. Every line passes results.Printable, so a server's message or a file's
// name never carries a terminal escape to the user.
type Console struct {
	Stdout io.Writer
	Stderr io.Writer
	Quiet  bool
}

// Logf reports progress on Stderr unless Quiet: the logger every session hands to
// the managed servers and the loader.
func (c Console) Logf(format string, args ...any) {
	if !c.Quiet {
		fmt.Fprintln(c.Stderr, results.Printable(fmt.Sprintf(format, args...)))
	}
}
