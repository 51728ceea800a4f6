package main

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/session"
)

// TestReadmeListsEveryCommand: a user finds every command and sub-command of `brokerbench
// --help` in the README, as `brokerbench PATH ...` or as a code span starting with it.
func TestReadmeListsEveryCommand(t *testing.T) {
	readme := readDoc(t, "README.md")
	var walk func(c *cobra.Command, path string)
	walk = func(c *cobra.Command, path string) {
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			p := strings.TrimSpace(path + " " + sub.Name())
			if !regexp.MustCompile("(`|brokerbench )" + regexp.QuoteMeta(p) + "[ `]").MatchString(readme) {
				t.Errorf("README.md does not show the command %q", p)
			}
			walk(sub, p)
		}
	}
	walk(newRootCommand(&globalOptions{Console: session.Console{Stdout: io.Discard, Stderr: io.Discard}}), "")
}

// TestReadmeStatesSupportedVersions: the versions an engine checks (run and load refuse
// an older server) are the ones the README states.
func TestReadmeStatesSupportedVersions(t *testing.T) {
	readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	for _, e := range database.Engines() {
		if e.Versions != "" && !strings.Contains(readme, e.Product+" ("+e.Versions+")") {
			t.Errorf("README.md does not say %s (%s)", e.Product, e.Versions)
		}
	}
}
